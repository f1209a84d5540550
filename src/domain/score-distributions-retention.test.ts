import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { LeagueKey } from './markets.ts';
import {
  CENTRE_STEP,
  DISTRIBUTIONS_CACHED,
  distributionsCached,
  gameDistributions,
  halfDistributions,
  splitHalf,
} from './score-distributions.ts';
import { seededRandom } from './random.ts';

// Issue 59 (decision 292): a cached half keeps its two distributions and what its split reads, and nothing of the
// build it was made from. Its closures used to share one context with the build, so each of the 2,000 cached halves
// kept its full game's distributions (and their coupling) alive after the games' cache had dropped the game, and an
// NFL half kept its 401-entry key weights and a map of kernels growing with every final it split: 15 MB held by the
// halves' cache of an idle server at 600 s. Checked by collection: the game is dropped from its cache, then a full
// garbage collection must free it while the half is still cached. V8's `gc` is taken from a new context once
// --expose-gc is set (no flag on the test runner); a WeakRef's target is kept to the end of the job that made or
// read it, so the collection runs after a turn of the event loop.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Asks for DISTRIBUTIONS_CACHED other games (NHL centres), so that every game asked for before is dropped. */
function fillGamesCache(): void {
  for (let i = 0; i < DISTRIBUTIONS_CACHED; i += 1)
    gameDistributions('nhl', { margin: (i % 40) * CENTRE_STEP, total: 3 + Math.floor(i / 40) * CENTRE_STEP });
  expect(distributionsCached()).toBe(DISTRIBUTIONS_CACHED);
}

describe('a cached half keeps nothing of the game it was built from (issue 59)', () => {
  it.each([
    ['nba', { margin: 4.5, total: 227.5 }, { home: 117, away: 110 }],
    ['ncaab', { margin: -6, total: 141 }, { home: 66, away: 75 }],
    ['nfl', { margin: 3.5, total: 44.5 }, { home: 27, away: 20 }],
  ] as const)(
    '%s: the game is collectable once its cache drops it',
    async (league: LeagueKey, centre, final) => {
      const made = (() => {
        const game = gameDistributions(league, centre);
        const half = halfDistributions(league, centre);
        // The split read once, as the simulator does at a game's end (an NFL half used to memoise its kernels).
        const random = seededRandom(292);
        for (let k = 0; k < 20; k += 1)
          splitHalf(league, centre, { home: final.home + k, away: final.away }, random);
        return { game: new WeakRef(game), half };
      })();
      fillGamesCache();
      await nextTurn();
      gc();
      await nextTurn();
      // The half is still the cached one (it was not rebuilt), and the game it was built from is gone.
      expect(halfDistributions(league, centre)).toBe(made.half);
      expect(made.game.deref()).toBeUndefined();
    },
  );

  it('the check can fail: a game the half still reaches is not collected', async () => {
    const made = (() => {
      const game = gameDistributions('nba', { margin: -2.5, total: 219 });
      return { game: new WeakRef(game), keep: { game } };
    })();
    fillGamesCache();
    await nextTurn();
    gc();
    await nextTurn();
    expect(made.game.deref()).toBe(made.keep.game);
  });
});
