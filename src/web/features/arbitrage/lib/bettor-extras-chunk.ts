// What the arbitrage page loads only when a bettor asks for it (lib/bettor-extras.ts): prices in decimal, fractional
// or probability, and stakes rounded to whole dollars. One chunk, kept off the first load.
export { formatOdds } from '#domain/odds-format.ts';
export { splitStakes } from '#domain/stake-split.ts';
