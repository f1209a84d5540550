import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { DropReason } from '#engine/messages.ts';
import { simulatorSource } from '#engine/sources/simulator.ts';
import { logDrops } from './drop-log.ts';

// Decision 298: the simulator drops some of its own props as ambiguous_player by design (prop-simulator.ts); that is
// logged at debug level, not as a warning every 30 s, while any other drop still warns.

/** A real pino logger at the server's default level (info), its lines kept. */
function logger(level = 'info') {
  const lines: { level: number; msg: string; drops: Record<string, number> }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { log: pino({ level }, stream), lines };
}

const WARN = 40;
const DEBUG = 20;

describe('the dropped-input summary', () => {
  it('does not warn of the simulator’s expected drops (at info level nothing is written)', () => {
    const { log, lines } = logger();
    logDrops(log, new Map<DropReason, number>([['ambiguous_player', 31]]), simulatorSource(1).expectedDrops);
    expect(lines).toEqual([]);
  });

  it('writes them at debug level, counted', () => {
    const { log, lines } = logger('debug');
    logDrops(log, new Map<DropReason, number>([['ambiguous_player', 31]]), simulatorSource(1).expectedDrops);
    expect(lines).toMatchObject([{ level: DEBUG, drops: { ambiguous_player: 31 } }]);
  });

  it('still warns of an unexpected drop, beside an expected one, naming only the unexpected', () => {
    const { log, lines } = logger();
    logDrops(
      log,
      new Map<DropReason, number>([
        ['ambiguous_player', 30],
        ['odds_out_of_range', 2],
      ]),
      simulatorSource(1).expectedDrops,
    );
    expect(lines).toEqual([expect.objectContaining({ level: WARN, msg: 'odds input dropped' })]);
    expect(lines[0]!.drops).toEqual({ odds_out_of_range: 2 });
  });

  it('warns of ambiguous players where the source does not make them on purpose', () => {
    for (const expected of [simulatorSource(1, { props: false }).expectedDrops, undefined]) {
      const { log, lines } = logger();
      logDrops(log, new Map<DropReason, number>([['ambiguous_player', 3]]), expected);
      expect(lines).toMatchObject([{ level: WARN, drops: { ambiguous_player: 3 } }]);
    }
  });
});
