import { memo } from 'react';
import { seededRandom } from '#domain/random.ts';

// 50 decorative twinkling dots (docs/product.md §2). Positions come from a seeded generator so the prerendered HTML and the
// hydrated page agree; the CSS keeps them still under prefers-reduced-motion.

export const DOT_COUNT = 50;

export interface Dot {
  top: number;
  left: number;
  size: number;
  delay: number;
  duration: number;
}

export function makeDots(count = DOT_COUNT, seed = 2024): Dot[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => ({
    top: Math.round(random() * 1000) / 10,
    left: Math.round(random() * 1000) / 10,
    size: 1 + Math.round(random() * 2),
    delay: Math.round(random() * 40) / 10,
    duration: 2 + Math.round(random() * 30) / 10,
  }));
}

const DOTS = makeDots();

export const TwinklingDots = memo(function TwinklingDots() {
  return (
    <div
      aria-hidden="true"
      data-testid="twinkling-dots"
      className="pointer-events-none absolute inset-0 overflow-hidden"
    >
      {DOTS.map((dot, index) => (
        <span
          key={index}
          className="twinkle absolute rounded-full bg-emerald-200"
          style={{
            top: `${dot.top}%`,
            left: `${dot.left}%`,
            width: dot.size,
            height: dot.size,
            ['--twinkle-delay' as string]: `${dot.delay}s`,
            ['--twinkle-duration' as string]: `${dot.duration}s`,
          }}
        />
      ))}
    </div>
  );
});
