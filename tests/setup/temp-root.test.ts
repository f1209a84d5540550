import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import setup, { TEMP_ROOT_VARIABLE } from './temp-root.ts';

const PREFIX = 'sharpline-vitest-';

describe('the test run’s temporary root (decision 298)', () => {
  it('is one folder under the system’s temporary folder in this very run, however many projects set it up', () => {
    // Vitest ran the global setup for the root project and for this file's project at least: nested, the root's
    // parent would be another root.
    const root = tmpdir();
    expect(path.basename(root).startsWith(PREFIX)).toBe(true);
    expect(path.basename(path.dirname(root)).startsWith(PREFIX)).toBe(false);
    expect(process.env[TEMP_ROOT_VARIABLE]).toBe(root);
  });

  describe('called again and again', () => {
    const saved = { TMPDIR: process.env.TMPDIR, root: process.env[TEMP_ROOT_VARIABLE] };
    let outer = '';
    afterEach(() => {
      process.env.TMPDIR = saved.TMPDIR;
      process.env[TEMP_ROOT_VARIABLE] = saved.root;
      rmSync(outer, { recursive: true, force: true });
    });

    it('makes the root once, and the first call’s teardown removes it and puts TMPDIR back', () => {
      outer = mkdtempSync(path.join(tmpdir(), 'outer-'));
      process.env.TMPDIR = outer;
      delete process.env[TEMP_ROOT_VARIABLE];

      const teardowns = [setup(), setup(), setup()];
      const root = process.env.TMPDIR;
      expect(path.dirname(root)).toBe(outer);
      expect(path.basename(root).startsWith(PREFIX)).toBe(true);
      expect(tmpdir()).toBe(root);

      // Vitest tears down in reverse order: the later calls' teardowns leave the root in place.
      teardowns[2]!();
      teardowns[1]!();
      expect(existsSync(root)).toBe(true);
      teardowns[0]!();
      expect(existsSync(root)).toBe(false);
      expect(process.env.TMPDIR).toBe(outer);
      expect(process.env[TEMP_ROOT_VARIABLE]).toBeUndefined();
    });
  });
});
