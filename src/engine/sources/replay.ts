import { readFile } from 'node:fs/promises';
import { MAX_TIMER_MS, timerDelay } from '../ingest.ts';
import type { SourceMessage } from '../messages.ts';
import { MarketSimulator } from './simulation/market-simulator.ts';
import type { OddsSource, SourceContext } from './types.ts';

// `replay:<path>`: plays a JSONL file of timed messages (docs/reference/replay-format.md). Each line is
// `{"at": <ms after start>, ...message}` where the message is an `event`, `price` or `end` as sources send them
// (messages.ts). Optional first line: `{"replay": 1, "keepalive": true, "loop": false}`. Lines starting with `#`
// and blank lines are ignored. Events may give `startsIn` (ms after the replay starts) instead of `startsAt`.

export const MAX_REPLAY_BYTES = 64 * 1024 * 1024;
export const MAX_LINE_BYTES = 64 * 1024;
/** Re-confirms every held price this often when keepalive is on, so recorded prices stay inside the age limits. */
export const KEEPALIVE_MS = 3_000;
/**
 * The latest `at` a line may have: a Node timer cannot wait longer (decision 048), and a replay running for weeks
 * before its next line is a broken file, not a plan. Later lines are refused as `time_out_of_range`.
 */
export const MAX_AT_MS = MAX_TIMER_MS;

export interface ReplayHeader {
  replay: 1;
  /**
   * Re-send the prices held (same odds, fresh time) every KEEPALIVE_MS, so they never turn stale. Default true. Only
   * prices stamped on receipt are held: one with its own `updatedAt` keeps that time and ages (decision 047).
   */
  keepalive?: boolean;
  /** Start over (same timings) after the last line. Default false. */
  loop?: boolean;
}

export interface TimedMessage {
  at: number;
  message: Record<string, unknown>;
}

export interface ParsedReplay {
  header: Required<Omit<ReplayHeader, 'replay'>>;
  lines: TimedMessage[];
  /** Lines refused while parsing, by reason. */
  refused: { reason: 'not_json' | 'payload_too_large' | 'malformed' | 'time_out_of_range'; line: number }[];
}

export function parseReplay(text: string): ParsedReplay {
  const header = { keepalive: true, loop: false };
  const lines: TimedMessage[] = [];
  const refused: ParsedReplay['refused'] = [];
  const rows = text.split('\n');
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index]!.trim();
    if (row === '' || row.startsWith('#')) continue;
    if (Buffer.byteLength(row) > MAX_LINE_BYTES) {
      refused.push({ reason: 'payload_too_large', line: index + 1 });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      refused.push({ reason: 'not_json', line: index + 1 });
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      refused.push({ reason: 'malformed', line: index + 1 });
      continue;
    }
    const record = value as Record<string, unknown>;
    if (record.replay !== undefined) {
      if (typeof record.keepalive === 'boolean') header.keepalive = record.keepalive;
      if (typeof record.loop === 'boolean') header.loop = record.loop;
      continue;
    }
    const at = record.at ?? 0;
    if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) {
      refused.push({ reason: 'malformed', line: index + 1 });
      continue;
    }
    if (at > MAX_AT_MS) {
      refused.push({ reason: 'time_out_of_range', line: index + 1 });
      continue;
    }
    const { at: _at, ...message } = record;
    lines.push({ at, message });
  }
  // Stable sort: lines with the same `at` keep their file order (an event before its prices).
  lines.sort((a, b) => a.at - b.at);
  return { header, lines, refused };
}

/**
 * Resolves `startsIn` against the replay's start and stamps nothing else: prices get the time of receipt. The start
 * time it makes is checked by the engine like any other (a `startsIn` of 1e300 is dropped, decision 045).
 */
function materialise(message: Record<string, unknown>, startMs: number): Record<string, unknown> {
  if (message.kind === 'event' && typeof message.startsIn === 'number' && message.startsAt === undefined) {
    const { startsIn, ...rest } = message;
    return { ...rest, startsAt: startMs + (startsIn as number) };
  }
  return message;
}

export function replaySource(path: string): OddsSource {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let keepalive: ReturnType<typeof setInterval> | null = null;
  let stopped = false;
  return {
    name: 'replay',
    async start(context: SourceContext) {
      let text: string;
      try {
        const bytes = await readFile(path);
        if (bytes.length > MAX_REPLAY_BYTES) {
          context.drop('payload_too_large');
          context.log.warn({ path, bytes: bytes.length }, 'replay file over the size cap; nothing replayed');
          context.ready();
          return;
        }
        text = bytes.toString('utf8');
      } catch (error) {
        context.log.warn({ path, err: String(error) }, 'replay file unreadable; nothing replayed');
        context.ready();
        return;
      }
      const parsed = parseReplay(text);
      for (const item of parsed.refused) context.drop(item.reason);
      // Prices the keepalive re-confirms: those stamped on receipt (no `updatedAt` in the line). A price with its own
      // `updatedAt` is the book's word on when it was set; re-sending it "fresh" would revive a price the file marks
      // stale, so it is never held, and it replaces any held price of the same outcome (decision 047).
      const held = new Map<string, Record<string, unknown>>();
      const apply = (message: Record<string, unknown>, startMs: number) => {
        const concrete = materialise(message, startMs);
        if (context.ingest(concrete) && concrete.kind === 'price') {
          const { links: _links, ...rest } = concrete;
          const key = `${String(rest.sourceEventId)}|${String(rest.book)}|${String(rest.market)}|${String(rest.period)}|${String(rest.point)}|${String(rest.outcome)}`;
          if (rest.updatedAt === undefined) held.set(key, rest);
          else held.delete(key);
        }
        if (concrete.kind === 'end') {
          for (const [key, value] of held)
            if (value.sourceEventId === concrete.sourceEventId) held.delete(key);
        }
      };
      const run = (startMs: number) => {
        let index = 0;
        while (index < parsed.lines.length && parsed.lines[index]!.at <= 0)
          apply(parsed.lines[index++]!.message, startMs);
        const next = () => {
          if (stopped) return;
          if (index >= parsed.lines.length) {
            if (parsed.header.loop && parsed.lines.length > 0) schedule(() => run(context.now()), 1_000);
            return;
          }
          const due = startMs + parsed.lines[index]!.at;
          const wait = due - context.now();
          if (wait > 0) {
            schedule(next, wait);
            return;
          }
          while (index < parsed.lines.length && startMs + parsed.lines[index]!.at <= context.now()) {
            apply(parsed.lines[index++]!.message, startMs);
          }
          next();
        };
        next();
      };
      const schedule = (fn: () => void, ms: number) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          fn();
        }, timerDelay(ms));
        timer.unref?.();
        timers.add(timer);
      };
      run(context.now());
      context.ready();
      if (parsed.header.keepalive) {
        keepalive = setInterval(() => {
          for (const message of held.values()) context.ingest(message);
        }, KEEPALIVE_MS);
        keepalive.unref?.();
      }
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      if (keepalive) clearInterval(keepalive);
      keepalive = null;
    },
  };
}

/** Records `seconds` of the simulator as a replay file (what `scripts/record-replay.ts` writes). */
export function recordSimulation(options: {
  seed: number;
  seconds: number;
  events?: number;
  stepMs?: number;
}): string {
  const stepMs = options.stepMs ?? 250;
  const startMs = Date.UTC(2026, 0, 1);
  const sim = new MarketSimulator({ seed: options.seed, startMs, events: options.events, stepMs });
  const out: string[] = [JSON.stringify({ replay: 1, keepalive: true, loop: false })];
  const write = (at: number, messages: SourceMessage[]) => {
    for (const message of messages) {
      const line: Record<string, unknown> = { at, ...message };
      if (message.kind === 'event') {
        delete line.startsAt;
        line.startsIn = (message.startsAt as number) - startMs;
      }
      out.push(JSON.stringify(line));
    }
  };
  write(0, sim.initial());
  for (let step = 1; step * stepMs <= options.seconds * 1000; step += 1) write(step * stepMs, sim.step());
  return `${out.join('\n')}\n`;
}
