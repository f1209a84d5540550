// The finder boards' reading scaffold (decisions 163, 167): a board is computed at most once per quantum of time per
// horizon (250 ms in real time, 1 s for a delayed horizon), every request of a quantum sharing it. A delayed board is
// computed at its quantum's start, so every request of the quantum gets the same answer; each plan's delay keeps its
// own board.

/** How long one computed board serves requests, per kind of horizon. */
export const BOARD_QUANTUM_MS = { realTime: 250, delayed: 1000 } as const;

export class QuantumBoards<R> {
  private readonly cache = new Map<string, { quantum: number; result: R }>();
  /** Boards computed (not served from the cache). */
  computed = 0;

  /** `compute(at, now)`: the board as visible at `at` (undefined: the newest prices at `now`). */
  constructor(private readonly compute: (at: number | undefined, now: number) => R) {}

  /** The board at `horizon` (undefined: real time at `now`). */
  read(horizon: number | undefined, now: number): R {
    const realTime = horizon === undefined;
    const quantumMs = realTime ? BOARD_QUANTUM_MS.realTime : BOARD_QUANTUM_MS.delayed;
    const quantum = Math.floor((realTime ? now : horizon) / quantumMs);
    const key = realTime ? 'now' : `delay:${Math.round((now - horizon) / 1000)}`;
    const cached = this.cache.get(key);
    if (cached && cached.quantum === quantum) return cached.result;
    const result = this.compute(realTime ? undefined : quantum * quantumMs, now);
    this.cache.set(key, { quantum, result });
    this.computed += 1;
    return result;
  }
}
