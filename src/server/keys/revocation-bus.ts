import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { ApiKeyService, KeyChangeKind } from './service.ts';

// Revocations told to every instance through Redis pub/sub (when REDIS_URL is set), so that another instance's key
// cache forgets a revoked key at once instead of trusting it for up to its cache time (2 s), and closes its streams
// at once instead of at its next database re-check. The re-check stays as the fallback for a lost message. Plan and
// billing changes travel the same way (decision 142), so that every instance serves a new plan from the next request.

interface Message {
  from: string;
  ids: number[];
  /** Absent in messages of instances older than decision 142: those were revocations. */
  kind?: KeyChangeKind;
}

const KINDS: readonly KeyChangeKind[] = ['revoked', 'plan-changed', 'billing'];

export class RedisRevocationBus {
  /** This instance, so that it ignores its own messages. */
  private readonly instance = randomUUID();
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private off: (() => void) | undefined;

  constructor(
    url: string,
    private readonly channel: string,
    private readonly keys: ApiKeyService,
    private readonly log: FastifyBaseLogger,
  ) {
    const options = { lazyConnect: true, maxRetriesPerRequest: 1 };
    this.publisher = new Redis(url, options);
    this.subscriber = new Redis(url, options);
    // Never the URL (it may hold a password): the error's message only.
    for (const client of [this.publisher, this.subscriber])
      client.on('error', (error: Error) =>
        this.log.warn({ err: error.message }, 'revocation bus: redis error'),
      );
  }

  async start(): Promise<void> {
    await Promise.all([this.publisher.connect(), this.subscriber.connect()]);
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch {
        return;
      }
      if (message.from === this.instance || !Array.isArray(message.ids)) return;
      const ids = message.ids.filter((id) => Number.isSafeInteger(id));
      const kind = message.kind === undefined ? 'revoked' : message.kind;
      if (ids.length > 0 && KINDS.includes(kind)) this.keys.changed(ids, 'remote', kind);
    });
    await this.subscriber.subscribe(this.channel);
    this.off = this.keys.onChange(({ ids, origin, kind }) => {
      if (origin !== 'local') return;
      const message: Message = { from: this.instance, ids, kind };
      this.publisher.publish(this.channel, JSON.stringify(message)).catch((error: Error) => {
        this.log.warn(
          { err: error.message },
          'revocation bus: publish failed (other instances re-check within 2 s)',
        );
      });
    });
  }

  async close(): Promise<void> {
    this.off?.();
    this.subscriber.disconnect();
    await this.publisher.quit().catch(() => this.publisher.disconnect());
  }
}
