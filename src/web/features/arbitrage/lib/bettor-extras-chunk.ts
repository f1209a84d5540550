// What the arbitrage page loads only when a bettor asks for it (lib/bettor-extras.ts): prices in decimal, fractional
// or probability, stakes rounded to whole dollars, and what the toolbar's filters keep. One chunk, kept off the first
// load.
export { arbFilter } from './arb-predicate.ts';
export { formatOdds } from '#domain/odds-format.ts';
export { splitStakes } from '#domain/stake-split.ts';
