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

/** Edges between top-level parts, each with one import that makes it (for the message). */
function partGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles()) {
    const from = partOf(file);
    for (const target of importsOf(file)) {
      const to = partOf(target);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${file} → ${target}`);
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

/** Files that may name the table: its owner, the schema that declares it. */
const TABLE_OWNERS = (file: string) => partOf(file) === 'keys' || file === path.join('db', 'schema.ts');

/**
 * The one statement outside keys/ that names api_keys: the operators' list of trial requests joins each request's
 * key (TrialService.recent). It only reads, and splitting the join would change what one statement answers.
 */
const JOINS_READING_KEYS = new Set([path.join('trials', 'service.ts')]);

describe('src/server architecture', () => {
  it('imports between its top-level folders (and top-level files) form no cycle', () => {
    const graph = partGraph();
    expect(graph.get('keys')?.size ?? 0).toBeGreaterThan(0);
    const cycle = findCycle(graph);
    const described = cycle
      ?.slice(1)
      .map((to, i) => `${cycle[i]} → ${to} (${graph.get(cycle[i]!)!.get(to)})`);
    expect(described ?? [], `import cycle:\n${described?.join('\n')}`).toEqual([]);
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

  it('only keys/ (and the schema declaring it) names the api_keys table, in Drizzle or in SQL', () => {
    const offenders = sourceFiles()
      .filter((file) => !TABLE_OWNERS(file))
      .filter((file) => {
        const code = codeOf(file);
        // `app.apiKeys` is the key service, not the table: a preceding dot is a property.
        return /(?<![.\w])apiKeys\b/.test(code) || /\bapi_keys\b/.test(code);
      });
    expect(offenders.filter((file) => !JOINS_READING_KEYS.has(file))).toEqual([]);
    expect(offenders).toEqual([...JOINS_READING_KEYS]);
  });
});
