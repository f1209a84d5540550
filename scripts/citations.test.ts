import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Code and docs cite only files the repository holds (docs/conventions.md "Habits"): a newcomer can follow every
// `docs/…` path, every `docs/product.md §N`, and no comment points at a document outside the repository.

const ROOTS = ['src', 'tests', 'scripts', 'bench', 'docs', 'README.md', 'CHANGELOG.md', 'eslint.config.js'];
const TEXT = /\.(ts|tsx|js|mjs|md|sh)$/;

function files(entry: string): string[] {
  if (!existsSync(entry)) return [];
  if (statSync(entry).isFile()) return TEXT.test(entry) ? [entry] : [];
  return readdirSync(entry).flatMap((name) => files(path.join(entry, name)));
}

const sources = ROOTS.flatMap(files).filter((file) => file !== path.join('scripts', 'citations.test.ts'));
const sections = new Set(
  [...readFileSync('docs/product.md', 'utf8').matchAll(/^## §(\d+) /gm)].map((match) => match[1]),
);

describe('citations', () => {
  it('name no document outside the repository', () => {
    const outside = sources.filter((file) =>
      /\bSPEC\b|DESIGN\.md|CONVENTIONS\.md/.test(readFileSync(file, 'utf8')),
    );
    expect(outside).toEqual([]);
  });

  it('cite docs/… files that exist and docs/product.md sections it has', () => {
    const broken: string[] = [];
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bdocs\/[\w./-]*\w\.(md|png)\b/g)) {
        if (!existsSync(match[0])) broken.push(`${file}: ${match[0]}`);
      }
      for (const match of text.matchAll(/product\.md §(\d+)/g)) {
        if (!sections.has(match[1]!)) broken.push(`${file}: product.md §${match[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
