// The finder boards' reading scaffold (decisions 163, 167): a board is computed at most once per quantum of time per
// horizon (250 ms in real time, 1 s for a delayed horizon), every request of a quantum sharing it. A delayed board is
// computed at its quantum's start, so every request of the quantum gets the same answer; each plan's delay keeps its
// own board. A variant (issue 55: a de-vig method and reference other than the default, decision 206) keeps its own
// board per horizon too; a board whose quantum is over is dropped when the next one is computed, so variants asked
// once do not stay in memory.

/** How long one computed board serves requests, per kind of horizon. */
export const BOARD_QUANTUM_MS = { realTime: 250, delayed: 1000 } as const;

export class QuantumBoards<R, V = never> {
  private readonly cache = new Map<string, { quantum: number; expiresAt: number; result: R }>();
  /** Boards computed (not served from the cache). */
  computed = 0;

  /**
   * `compute(at, now, variant)`: the board as visible at `at` (undefined: the newest prices at `now`); `keyOf` names a
   * variant in the cache's keys.
   */
  constructor(
    private readonly compute: (at: number | undefined, now: number, variant: V | undefined) => R,
    private readonly keyOf: (variant: V) => string = String,
  ) {}

  /** The board at `horizon` (undefined: real time at `now`), of `variant` (undefined: the default board). */
  read(horizon: number | undefined, now: number, variant?: V): R {
    const realTime = horizon === undefined;
    const quantumMs = realTime ? BOARD_QUANTUM_MS.realTime : BOARD_QUANTUM_MS.delayed;
    const quantum = Math.floor((realTime ? now : horizon) / quantumMs);
    const key =
      (realTime ? 'now' : `delay:${Math.round((now - horizon) / 1000)}`) +
      (variant === undefined ? '' : `|${this.keyOf(variant)}`);
    const cached = this.cache.get(key);
    if (cached && cached.quantum === quantum) return cached.result;
    for (const [other, board] of this.cache) if (board.expiresAt <= now) this.cache.delete(other);
    const result = this.compute(realTime ? undefined : quantum * quantumMs, now, variant);
    // In the reader's clock: the quantum ends (quantum + 1) × quantumMs after the horizon's origin.
    const expiresAt = (quantum + 1) * quantumMs + (realTime ? 0 : now - horizon);
    this.cache.set(key, { quantum, expiresAt, result });
    this.computed += 1;
    return result;
  }

  /** Boards held (the default's and the variants', per horizon). */
  get size(): number {
    return this.cache.size;
  }
}
