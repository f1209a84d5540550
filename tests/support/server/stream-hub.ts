import { onTestFinished } from 'vitest';
import { getPlan, type PlanId } from '#domain/plans.ts';
import { OddsEngine } from '#engine/engine.ts';
import type { FeedEngine } from '#server/feed/plugin.ts';
import type { ApiKeyRecord } from '#server/keys/service.ts';
import type { StreamSink } from '#server/odds-api/streaming/fan-out.ts';
import {
  DEFAULT_STREAM_OPTIONS,
  StreamHub,
  type StreamOptions,
} from '#server/odds-api/streaming/stream-hub.ts';
import { virtualClock } from './app.ts';

// Test support of the stream hub's modules: the hub without HTTP, on a hand-fed engine and a virtual clock, with
// sinks that record what they were written.

export class FakeSink implements StreamSink {
  text = '';
  chunks: (string | Buffer)[] = [];
  ended = false;
  destroyed = false;
  queuedBytes = 0;
  /** How many times the hub waited for this sink to flush. */
  drains = 0;
  write(chunk: string | Buffer) {
    this.chunks.push(chunk);
    this.text += chunk.toString();
  }
  end(text?: string) {
    if (text) this.text += text;
    if (text === undefined) this.destroyed = true;
    this.ended = true;
  }
  drained() {
    this.drains += 1;
    return new Promise<void>((resolve) => setImmediate(resolve));
  }
}

let nextId = 1;
export function keyOf(planId: PlanId): ApiKeyRecord {
  const id = nextId++;
  return {
    id,
    prefix: 'sl_live_abcdef',
    kind: 'paid',
    plan: getPlan(planId),
    ownerEmail: 'x@example.com',
    createdAt: new Date(0),
    expiresAt: null,
    revokedAt: null,
    stripeCustomerId: null,
    stripeSubscriptionId: null,
    billingHold: null,
    ledgerId: id,
    replacedBy: null,
    supersedes: false,
  };
}

/**
 * A started hub over an engine holding two events (e1: NBA, e2: NHL), stopped when the test that calls it ends. `price` sets the home
 * moneyline of an event at a book.
 */
export function setup(
  maxQueuedBytes = 1 << 20,
  catchUpMs = DEFAULT_STREAM_OPTIONS.catchUpMs,
  options: Partial<StreamOptions> = {},
) {
  const clock = virtualClock();
  const engine = new OddsEngine({ source: 'replay', now: clock.now }) as unknown as FeedEngine;
  engine.markReady();
  engine.ingest({
    kind: 'event',
    sourceEventId: 'e1',
    league: 'nba',
    home: { name: 'Boston Celtics' },
    away: { name: 'New York Knicks' },
    startsAt: clock.now() + 3_600_000,
  });
  const hub = new StreamHub(
    engine,
    {
      ...DEFAULT_STREAM_OPTIONS,
      heartbeatMs: 60_000,
      bufferSize: 1000,
      maxQueuedBytes,
      recheckMs: 60_000,
      releaseMs: 2,
      batchMs: 1,
      catchUpMs,
      ...options,
    },
    clock.now,
  );
  hub.start(async () => []);
  onTestFinished(() => hub.stop());
  engine.ingest({
    kind: 'event',
    sourceEventId: 'e2',
    league: 'nhl',
    home: { name: 'Boston Bruins' },
    away: { name: 'New York Rangers' },
    startsAt: clock.now() + 3_600_000,
  });
  const price = (american: number, sourceEventId = 'e1', book = 'fanduel') =>
    engine.ingest({
      kind: 'price',
      sourceEventId,
      book,
      market: 'moneyline',
      outcome: 'home',
      american,
    });
  return { clock, engine, hub, price };
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 25));
export const prices = (sink: FakeSink) => (sink.text.match(/event: price/g) ?? []).length;
/** The seqs of the ids a sink received, in order. */
export const ids = (sink: FakeSink) =>
  [...sink.text.matchAll(/^id: [0-9a-z]+-(\d+)$/gm)].map((match) => Number(match[1]));
