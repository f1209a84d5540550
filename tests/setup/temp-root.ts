import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Vitest global setup: every temporary directory a test makes (data directories, their `-secrets` siblings, stand-in
// site builds) goes under one root for the run, removed when the run ends. Test files keep calling
// `mkdtempSync(path.join(tmpdir(), …))`: `os.tmpdir()` reads TMPDIR, which the test workers inherit from here.
export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'sharpline-vitest-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
