import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Vitest global setup: every temporary directory a test makes (data directories, their `-secrets` siblings, stand-in
// site builds) goes under one root for the run, removed when the run ends. Test files keep calling
// `mkdtempSync(path.join(tmpdir(), …))`: `os.tmpdir()` reads TMPDIR, which the test workers inherit from here.
//
// Vitest calls a global setup once per project (the root project too), all in its main process before the first test,
// and their teardowns after the last. Each call used to make its root under the one before (`os.tmpdir()` had become
// it): a run of three projects nested four deep, and Chromium's socket path under it grew past the 107 bytes a Unix
// socket path may hold (decision 298). The first call makes the root; the later ones (and a Vitest started by a test,
// which inherits the variable) take the same one.

/** The run's root, for the later calls of this setup. */
export const TEMP_ROOT_VARIABLE = 'SHARPLINE_VITEST_TEMP_ROOT';

export default function setup(): () => void {
  const existing = process.env[TEMP_ROOT_VARIABLE];
  if (existing && existsSync(existing)) {
    process.env.TMPDIR = existing;
    // The call that made it removes it.
    return () => {};
  }
  const outer = process.env.TMPDIR;
  const root = mkdtempSync(path.join(tmpdir(), 'sharpline-vitest-'));
  process.env[TEMP_ROOT_VARIABLE] = root;
  process.env.TMPDIR = root;
  return () => {
    rmSync(root, { recursive: true, force: true });
    delete process.env[TEMP_ROOT_VARIABLE];
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
  };
}
