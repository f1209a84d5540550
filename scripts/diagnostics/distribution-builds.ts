// In-process A/B of the smooth leagues' distribution builds (decision 309): builds the NBA, NCAAB and NFL games
// (`gameDistributionsUncached`) and first halves (`halfDistributions`, each centre once, so each is built) at a grid
// of centres, and the value scan's total and margin fits (`distributionCentreUncached`), and prints the CPU
// (process.cpuUsage) per build and a digest of every number built: run it at two commits, the digests must be equal.
//   node --import tsx scripts/diagnostics/distribution-builds.ts [rounds]
import { createHash } from 'node:crypto';
import { distributionCentreUncached } from '#domain/middles.ts';
import { gameDistributionsUncached, halfDistributions } from '#domain/score-distributions.ts';
import type { LeagueKey } from '#domain/markets.ts';

const rounds = Number(process.argv[2] ?? 3);
const leagues: [LeagueKey, number][] = [
  ['nba', 228],
  ['ncaab', 145],
  ['nfl', 45],
];
const hash = createHash('sha256');
const put = (values: readonly number[]) => hash.update(Float64Array.from(values));
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

let games = 0;
let gameMs = 0;
let halves = 0;
let halfMs = 0;
let fits = 0;
let fitMs = 0;
for (let round = 0; round < rounds; round += 1) {
  for (const [league, total] of leagues) {
    // Centres on the build grid (a twentieth of a point); each round a different offset, so every half is new.
    const centres: { margin: number; total: number }[] = [];
    for (let m = -60; m <= 60; m += 3)
      for (let t = -40; t <= 40; t += 4)
        centres.push({ margin: (m + round * 0.05) * 0.25, total: total + t * 0.25 + round * 0.05 });
    let start = cpu();
    for (const centre of centres) {
      const game = gameDistributionsUncached(league, centre);
      put([game.margin.min, ...game.margin.probabilities, game.total.min, ...game.total.probabilities]);
      games += 1;
    }
    gameMs += cpu() - start;
    start = cpu();
    for (const centre of centres) {
      const half = halfDistributions(league, centre);
      put([half.margin.min, ...half.margin.probabilities, half.total.min, ...half.total.probabilities]);
      halves += 1;
    }
    halfMs += cpu() - start;
    start = cpu();
    for (let k = 0; k < 40; k += 1) {
      const p = 0.3 + (k % 10) * 0.04;
      put([distributionCentreUncached(league, 'total', total + 0.5 + (k % 4), p, -3 + round * 0.05)]);
      put([distributionCentreUncached(league, 'margin', -3.5 - (k % 3), p, total + round * 0.05)]);
      fits += 2;
    }
    fitMs += cpu() - start;
  }
}
console.log(
  `games ${games}: ${((gameMs / games) * 1000).toFixed(1)} µs a build; halves ${halves}: ` +
    `${((halfMs / halves) * 1000).toFixed(1)} µs a build; fits ${fits}: ${((fitMs / fits) * 1000).toFixed(1)} µs a fit; ` +
    `heap used ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB; digest ${hash.digest('hex').slice(0, 16)}`,
);
