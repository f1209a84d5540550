import { useEffect, useRef } from 'react';
import { HIGHLIGHT_MS } from '../lib/arbs.ts';

// Green stars that burst from a new arb's edge badge for the highlight's 2.5 s (docs/product.md §4, §9). Rendered only when the
// visitor has not asked for reduced motion; decorative, hidden from assistive technology.

const PATHS = 'M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7-6.2-3.7-6.2 3.7 1.6-7L2 9.2l7.1-.6z';

function Star({ index }: { index: number }) {
  const ref = useRef<SVGSVGElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof element.animate !== 'function') return;
    const dx = index % 2 === 0 ? -18 - index * 3 : 18 + index * 3;
    const animation = element.animate(
      [
        { transform: 'translate(0, 0) scale(0.4) rotate(0deg)', opacity: 0 },
        { transform: `translate(${dx / 2}px, -14px) scale(1.1) rotate(60deg)`, opacity: 1, offset: 0.25 },
        { transform: `translate(${dx}px, -26px) scale(0.8) rotate(140deg)`, opacity: 0 },
      ],
      { duration: HIGHLIGHT_MS, easing: 'ease-out', fill: 'forwards' },
    );
    return () => animation.cancel();
  }, [index]);
  return (
    <svg ref={ref} viewBox="0 0 24 24" className="absolute left-8 top-2 h-4 w-4 fill-emerald-300 opacity-0">
      <path d={PATHS} />
    </svg>
  );
}

export function Stars({ count }: { count: number }) {
  return (
    <span
      aria-hidden="true"
      className="pointer-events-none absolute inset-0 overflow-visible"
      data-stars={count}
    >
      {Array.from({ length: count }, (_, index) => (
        <Star key={index} index={index} />
      ))}
    </span>
  );
}
