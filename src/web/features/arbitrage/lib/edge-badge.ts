// Edge badge (docs/product.md §9 "Edge badge and ordering"): green when positive, pale green at zero, and four red shades when
// negative by magnitude: at or under 0.25, at or under 0.5, at or under 0.75, above that. The edge is shown with 2
// decimals, and the colour follows the shown value, so a badge reading "0.00%" is always the zero colour.

export type EdgeTone = 'positive' | 'zero' | 'negative-1' | 'negative-2' | 'negative-3' | 'negative-4';

export const EDGE_DECIMALS = 2;

function shown(edgePct: number): number {
  const rounded = Math.round(edgePct * 100) / 100;
  return Object.is(rounded, -0) ? 0 : rounded;
}

export function edgeTone(edgePct: number): EdgeTone {
  const value = shown(edgePct);
  if (value > 0) return 'positive';
  if (value === 0) return 'zero';
  const magnitude = -value;
  if (magnitude <= 0.25) return 'negative-1';
  if (magnitude <= 0.5) return 'negative-2';
  if (magnitude <= 0.75) return 'negative-3';
  return 'negative-4';
}

/** "2.51%", "0.00%", "-0.30%" (never "-0.00%"). */
export function formatEdge(edgePct: number): string {
  return `${shown(edgePct).toFixed(EDGE_DECIMALS)}%`;
}
