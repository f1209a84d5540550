import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The shape docs/architecture.md describes, checked on the source (issue 32; docs/decisions/153-keys-have-one-home.md):
// the top-level parts of src/server import one another without a cycle, and one folder owns the api_keys table.

const SERVER = path.dirname(fileURLToPath(import.meta.url));

/** The non-test TypeScript files under src/server, as paths relative to it. */
function sourceFiles(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
      ? [path.relative(SERVER, full)]
      : [];
  });
}

/** A file's top-level part of src/server: its folder, or the file itself when it sits at the top (app.ts). */
function partOf(relative: string): string {
  const [first] = relative.split(path.sep);
  return first!;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g;

/** The src/server files a file imports (relative or `#server/…` specifiers), relative to src/server. */
function importsOf(relative: string): string[] {
  const text = readFileSync(path.join(SERVER, relative), 'utf8');
  const targets: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2]!;
    let target: string | undefined;
    if (specifier.startsWith('#server/')) target = specifier.slice('#server/'.length);
    else if (specifier.startsWith('.'))
      target = path.relative(SERVER, path.resolve(SERVER, path.dirname(relative), specifier));
    if (target !== undefined && !target.startsWith('..')) targets.push(target);
  }
  return targets;
}

/**
 * The Fastify decorators (`app.paidKeys`, `app.engine`…) and the file declaring each: the `FastifyInstance` members of
 * a `declare module 'fastify'` block (decision 269). A decorator read is a dependency on its owner that no import
 * shows (the augmentation makes it visible everywhere), so the checks below count it as one.
 */
function decoratorOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of sourceFiles()) {
    const text = readFileSync(path.join(SERVER, file), 'utf8');
    const block = /declare module 'fastify' \{[\s\S]*?\n\}/.exec(text)?.[0];
    const instance = block && /interface FastifyInstance \{([\s\S]*?)\n {2}\}/.exec(block)?.[1];
    if (!instance) continue;
    for (const member of instance.matchAll(/^ {4}(\w+)\??[:(]/gm)) owners.set(member[1]!, file);
  }
  return owners;
}

/**
 * The decorators a file reads, as `app.x`, `server.x`, `request.server.x`, `fastify.x` or `instance.x`.
 * `config` is left out: the composition root (app.ts) decorates it with config.ts's parsed environment, which every
 * part imports anyway and which imports no part.
 */
function decoratorsReadBy(relative: string, owners: Map<string, string>): string[] {
  const names = new Set<string>();
  for (const match of codeOf(relative).matchAll(/\b(?:app|server|fastify|instance)\.(\w+)\b/g)) {
    if (owners.has(match[1]!) && match[1] !== 'config') names.add(match[1]!);
  }
  return [...names];
}

/**
 * Edges between top-level parts, each with one import or decorator read that makes it (for the message). With
 * `decorators: false`, imports only.
 */
function partGraph({ decorators = true } = {}): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  const owners = decoratorOwners();
  const edge = (from: string, to: string, why: string) => {
    if (to === from) return;
    if (!graph.has(from)) graph.set(from, new Map());
    if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, why);
  };
  for (const file of sourceFiles()) {
    const from = partOf(file);
    for (const target of importsOf(file)) edge(from, partOf(target), `${file} → ${target}`);
    if (!decorators) continue;
    for (const name of decoratorsReadBy(file, owners)) {
      const owner = owners.get(name)!;
      edge(from, partOf(owner), `${file} reads app.${name} (${owner})`);
    }
  }
  return graph;
}

/** A cycle of the graph as its parts in order (first repeated at the end), or null. */
function findCycle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

/** Code lines only: whole-line comments (`//`, JSDoc and block comment lines) are dropped. */
function codeOf(relative: string): string {
  return readFileSync(path.join(SERVER, relative), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
}

/**
 * Each table's owner folder (docs/architecture.md, "Tables and their owners"): only its files, and db/ (the schema
 * declaring it, the migrations creating it), name it, in Drizzle (`emailOutbox`) or in SQL (`email_outbox`). Other
 * features call the owner's functions. A new table gets a row here, or the test below fails.
 */
const TABLE_OWNERS: Readonly<Record<string, string>> = {
  api_keys: 'keys',
  trial_requests: 'trials',
  email_outbox: 'email',
  sgp_credits: 'sgp',
  stripe_events: 'billing',
  billing_subscriptions: 'billing',
  billing_subscription_periods: 'billing',
  lost_key_requests: 'billing',
  billing_portal_links: 'billing',
  key_usage_daily: 'usage',
  history_events: 'history',
  history_series: 'history',
  history_gaps: 'history',
  history_fence: 'history',
  price_ticks: 'history',
  price_blocks: 'history',
};

/** The tables the migrations create (partitions named `<table>_default` counted as their table). */
function migratedTables(): string[] {
  const dir = path.join(SERVER, 'db', 'migrations');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.sql'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const match of text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?"?(\w+)"?/gi)) {
      names.add(match[1]!.replace(/_default$/, ''));
    }
  }
  return [...names].sort();
}

/** The Drizzle name of a table declared in db/schema.ts (`export const emailOutbox = pgTable('email_outbox'`). */
function drizzleNames(): Map<string, string> {
  const schema = readFileSync(path.join(SERVER, 'db', 'schema.ts'), 'utf8');
  return new Map(
    [...schema.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map((match) => [match[2]!, match[1]!]),
  );
}

/** The files outside `table`'s owner (and db/) that name it in code: its Drizzle name, or SQL on it. */
function filesNaming(table: string, owner: string, drizzle: string | undefined): string[] {
  return sourceFiles()
    .filter((file) => partOf(file) !== owner && partOf(file) !== 'db')
    .filter((file) => {
      const code = codeOf(file);
      // In SQL, the table follows FROM, JOIN, INTO, UPDATE or TABLE (`sgp_credits` is a usage metric's name too).
      // `app.sgpCredits` is a service, not the table: a preceding dot makes it a property.
      return (
        new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+"?${table}\\b`, 'i').test(code) ||
        (drizzle !== undefined && new RegExp(`(?<![.\\w])${drizzle}\\b`).test(code))
      );
    });
}

/**
 * The advisory locks' names by prefix (`trial:`, `stripe-sub:`…) and the files writing each: every lock is taken
 * with db/database.ts's `advisoryXactLock`, and each name is written in one module (decision 269).
 */
function lockNames(): { prefixes: Map<string, Set<string>>; rawLocks: string[] } {
  const prefixes = new Map<string, Set<string>>();
  const rawLocks: string[] = [];
  for (const file of sourceFiles()) {
    const code = codeOf(file);
    if (/pg_advisory/.test(code) && file !== path.join('db', 'database.ts')) rawLocks.push(file);
    for (const match of code.matchAll(/advisoryXactLock\(\s*\w+,\s*`([\w-]+):/g)) {
      if (!prefixes.has(match[1]!)) prefixes.set(match[1]!, new Set());
      prefixes.get(match[1]!)!.add(file);
    }
  }
  return { prefixes, rawLocks };
}

/** The core /v1 resources odds-api/ serves itself (decision 270); every other /v1 feature has its own folder. */
const CORE_V1_ROUTES = ['arbs.ts', 'common.ts', 'events.ts', 'leagues.ts', 'odds.ts'];

/**
 * A /v1 route module: it declares its routes with the /v1 security scheme of `odds-api/routes/common.ts`. The stream
 * (`odds-api/streaming/stream.ts`) is odds-api's own.
 */
function isV1RouteModule(relative: string): boolean {
  return (
    /\bsecurity\b/.test(codeOf(relative)) &&
    importsOf(relative).some((target) => target === path.join('odds-api', 'routes', 'common.ts'))
  );
}

/**
 * What breaks the layout of decision 270, for the given files (paths relative to src/server, `/`-separated): a /v1
 * route module outside `<feature>/routes.ts` or `<feature>/routes/<resource>.ts`, a feature's route in odds-api's
 * `routes/`, or a folder of /v1 routes without a test beside them.
 */
function layoutOffences(routeModules: string[], allFiles: string[]): string[] {
  const offences: string[] = [];
  for (const file of routeModules) {
    const [feature, ...rest] = file.split('/');
    if (feature === 'odds-api') {
      const core = rest.length === 2 && rest[0] === 'routes' && CORE_V1_ROUTES.includes(rest[1]!);
      if (!core && file !== 'odds-api/streaming/stream.ts')
        offences.push(`${file}: a feature's route in odds-api/`);
      continue;
    }
    const laidOut =
      (rest.length === 1 && rest[0] === 'routes.ts') || (rest.length === 2 && rest[0] === 'routes');
    if (!laidOut) offences.push(`${file}: not ${feature}/routes.ts or ${feature}/routes/<resource>.ts`);
    const folder = path.posix.dirname(file);
    const tested = allFiles.some(
      (other) => path.posix.dirname(other) === folder && other.endsWith('.test.ts'),
    );
    if (!tested) offences.push(`${file}: no test beside it in ${folder}/`);
  }
  return offences;
}

/** Every file under src/server, tests included, `/`-separated. */
function allServerFiles(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return allServerFiles(full);
    return [path.relative(SERVER, full).split(path.sep).join('/')];
  });
}

describe('src/server architecture', () => {
  it('imports and decorator reads between its top-level folders (and top-level files) form no cycle', () => {
    const graph = partGraph();
    expect(graph.get('keys')?.size ?? 0).toBeGreaterThan(0);
    const cycle = findCycle(graph);
    const described = cycle
      ?.slice(1)
      .map((to, i) => `${cycle[i]} → ${to} (${graph.get(cycle[i]!)!.get(to)})`);
    expect(described ?? [], `dependency cycle:\n${described?.join('\n')}`).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a.ts → b.ts']])],
      ['b', new Map([['c', 'b.ts → c.ts']])],
      ['c', new Map([['a', 'c.ts → a.ts']])],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
    graph.get('c')!.clear();
    expect(findCycle(graph)).toBeNull();
  });

  it('counts a read of another part’s Fastify decorator as a dependency on that part', () => {
    const owners = decoratorOwners();
    // Each decorator is declared once, in the part that decorates it.
    expect(owners.get('paidKeys')).toBe(path.join('billing', 'plugin.ts'));
    expect(owners.get('outbox')).toBe(path.join('email', 'plugin.ts'));
    expect(owners.get('engine')).toBe(path.join('feed', 'plugin.ts'));
    expect(owners.get('streamHub')).toBe(path.join('odds-api', 'streaming', 'stream.ts'));
    // The decorators the paid API reads are edges the import graph alone does not have.
    const withDecorators = partGraph();
    const importsOnly = partGraph({ decorators: false });
    expect(withDecorators.get('admin')?.get('email')).toMatch(/reads app\.outbox/);
    expect(importsOnly.get('admin')?.has('email') ?? false).toBe(false);
    expect(withDecorators.get('cluster')?.get('history')).toMatch(/reads app\.history/);
  });

  it('gives every table the migrations create an owner folder', () => {
    const owners = new Set(sourceFiles().map(partOf));
    for (const table of migratedTables()) {
      expect(TABLE_OWNERS[table], `${table}: add it to TABLE_OWNERS`).toBeDefined();
      expect(owners.has(TABLE_OWNERS[table]!), `${table}'s owner ${TABLE_OWNERS[table]}`).toBe(true);
    }
    expect(migratedTables()).toEqual(expect.arrayContaining(['api_keys', 'email_outbox', 'price_blocks']));
  });

  it('names each table only in its owner folder (and db/), in Drizzle or in SQL', () => {
    const drizzle = drizzleNames();
    expect(drizzle.get('email_outbox')).toBe('emailOutbox');
    const offenders = Object.entries(TABLE_OWNERS).flatMap(([table, owner]) =>
      filesNaming(table, owner, drizzle.get(table)).map(
        (file) => `${file} names ${table} (owner: ${owner}/)`,
      ),
    );
    expect(offenders).toEqual([]);
    // The check sees both spellings: email/ names its table in Drizzle, history/ in SQL.
    expect(filesNaming('email_outbox', 'trials', 'emailOutbox')).toContain(path.join('email', 'outbox.ts'));
    expect(filesNaming('price_ticks', 'trials', undefined)).toContain(path.join('history', 'batch-sql.ts'));
  });

  it('takes advisory locks through advisoryXactLock, each lock name written in one module', () => {
    const { prefixes, rawLocks } = lockNames();
    expect(rawLocks).toEqual([]);
    expect([...prefixes.keys()].sort()).toEqual(
      expect.arrayContaining(['trial', 'stripe-sub', 'lost-key', 'sharpline-migrations']),
    );
    const writtenTwice = [...prefixes].filter(([, files]) => files.size > 1);
    expect(writtenTwice.map(([prefix, files]) => `${prefix}: ${[...files].join(', ')}`)).toEqual([]);
    expect([...prefixes.get('trial')!]).toEqual([path.join('keys', 'mailbox-lock.ts')]);
  });

  it('lays every /v1 feature out one way: its folder holds its routes and their tests (decision 270)', () => {
    const routeModules = sourceFiles()
      .filter(isV1RouteModule)
      .map((file) => file.split(path.sep).join('/'));
    // The check sees the features it is about.
    expect(routeModules).toEqual(
      expect.arrayContaining([
        'ev/routes.ts',
        'middles/routes.ts',
        'sgp/routes.ts',
        'account/routes.ts',
        'history-api/routes/movement.ts',
        'odds-api/routes/odds.ts',
      ]),
    );
    expect(layoutOffences(routeModules, allServerFiles())).toEqual([]);
    // And it would see a feature's route back in odds-api/, a route module elsewhere, or one without a test.
    expect(
      layoutOffences(
        ['odds-api/routes/ev.ts', 'history-api/history-reads.ts', 'sgp/routes.ts'],
        ['sgp/routes.ts', 'history-api/history-reads.test.ts'],
      ),
    ).toEqual([
      "odds-api/routes/ev.ts: a feature's route in odds-api/",
      'history-api/history-reads.ts: not history-api/routes.ts or history-api/routes/<resource>.ts',
      'sgp/routes.ts: no test beside it in sgp/',
    ]);
  });
});
