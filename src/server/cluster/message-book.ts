// The ingest leader's compacted record of what its engine accepted (issue 19, decision 144): for every fixture its
// latest event message (with every player any of its messages listed), and for every price the latest message of that
// book, market, line and outcome, in the order each was first seen (a market lists its books in that order). Replayed
// in order into an empty engine, it rebuilds the leader's fixtures and current prices: an `api` instance starts from
// it, then follows the changes. The latest score of each fixture still on the board is kept too (issue 57); a final
// leaves with its fixture (the odds history keeps it).

/** A message as the leader's engine accepted it: its time of receipt and its JSON. */
export type BookEntry = readonly [at: number, json: string];

interface EventRecord {
  at: number;
  message: Record<string, unknown>;
  players: Map<string, unknown>;
}

type Fields = Record<string, unknown>;

const text = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** Which price a message sets: the same key means the later message replaces the earlier one. */
function priceKey(message: Fields): string {
  const player = message.player as Fields | undefined;
  return [
    text(message.sourceEventId),
    text(message.book),
    text(message.market),
    text(message.stat),
    player ? `${text(player.id)}|${text(player.name)}|${text(player.team)}` : '',
    text(message.period) || 'full',
    message.point === null || message.point === undefined ? '' : text(message.point),
    text(message.outcome),
  ].join('\u0000');
}

function playerKey(player: unknown): string {
  const fields = (player ?? {}) as Fields;
  return `${text(fields.id)}|${text(fields.name)}|${text(fields.team)}`;
}

export class MessageBook {
  private readonly events = new Map<string, EventRecord>();
  /** Price key → latest entry, in the order each key was first seen (the order a market lists its books in). */
  private readonly prices = new Map<string, { at: number; json: string; links: unknown }>();
  private readonly pricesOfEvent = new Map<string, Set<string>>();
  /** Fixture → its latest score message. */
  private readonly scores = new Map<string, { at: number; json: string }>();

  get size(): number {
    return this.events.size + this.prices.size + this.scores.size;
  }

  clear(): void {
    this.events.clear();
    this.scores.clear();
    this.prices.clear();
    this.pricesOfEvent.clear();
  }

  /**
   * Records a message the engine accepted at `at` (a message the engine refused must not be recorded). `json`, when
   * the caller already serialised the message, saves serialising it again.
   */
  record(message: unknown, at: number, json?: string): void {
    const fields = message as Fields;
    const sourceEventId = text(fields.sourceEventId);
    switch (fields.kind) {
      case 'event': {
        const record = this.events.get(sourceEventId) ?? { at, message: fields, players: new Map() };
        record.at = at;
        record.message = fields;
        if (Array.isArray(fields.players))
          for (const player of fields.players) record.players.set(playerKey(player), player);
        this.events.delete(sourceEventId);
        this.events.set(sourceEventId, record);
        return;
      }
      case 'score': {
        this.scores.set(sourceEventId, { at, json: json ?? JSON.stringify(fields) });
        return;
      }
      case 'end': {
        this.events.delete(sourceEventId);
        this.scores.delete(sourceEventId);
        for (const key of this.pricesOfEvent.get(sourceEventId) ?? []) this.prices.delete(key);
        this.pricesOfEvent.delete(sourceEventId);
        return;
      }
      case 'price': {
        const key = priceKey(fields);
        const previous = this.prices.get(key);
        // A message without links keeps the links already held (messages.ts): so must the record.
        const links = fields.links ?? previous?.links;
        const kept =
          fields.links === undefined && links !== undefined
            ? JSON.stringify({ ...fields, links })
            : (json ?? JSON.stringify(fields));
        this.prices.set(key, { at, json: kept, links });
        let keys = this.pricesOfEvent.get(sourceEventId);
        if (!keys) this.pricesOfEvent.set(sourceEventId, (keys = new Set()));
        keys.add(key);
        return;
      }
    }
  }

  /**
   * Every fixture (latest message, whole roster), its score, then every price in first-seen order: the order to replay
   * them in.
   */
  entries(): BookEntry[] {
    const out: BookEntry[] = [];
    for (const record of this.events.values()) {
      const message =
        record.players.size > 0
          ? { ...record.message, players: [...record.players.values()] }
          : record.message;
      out.push([record.at, JSON.stringify(message)]);
    }
    for (const { at, json } of this.scores.values()) out.push([at, json]);
    for (const { at, json } of this.prices.values()) out.push([at, json]);
    return out;
  }
}

/** Serialises entries as one JSON array of `[at, message]` pairs without re-serialising the messages. */
export function encodeEntries(entries: readonly BookEntry[]): string {
  let out = '[';
  for (let index = 0; index < entries.length; index += 1) {
    const [at, json] = entries[index]!;
    out += `${index === 0 ? '' : ','}[${at},${json}]`;
  }
  return `${out}]`;
}

/** The inverse of `encodeEntries`: `[at, message]` pairs (a malformed payload throws). */
export function decodeEntries(payload: string): [number, unknown][] {
  const parsed: unknown = JSON.parse(payload);
  if (!Array.isArray(parsed)) throw new Error('replicated messages must be an array');
  return parsed.map((item) => {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'number')
      throw new Error('replicated message must be [at, message]');
    return [item[0], item[1]] as [number, unknown];
  });
}
