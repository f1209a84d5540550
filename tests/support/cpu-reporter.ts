// A Playwright reporter that says where the browser tests' CPU goes, test by test and spec by spec (issue 32). Turned
// on by E2E_CPU_REPORT=<file.json> (playwright.config.ts); run it with one worker (`--workers=1`), or two tests' CPU
// overlaps in each figure.
//
// - `chromium`: the CPU-seconds of Debian's Chromium processes while the test ran: each live process's own time and the
//   time of the children it has reaped (a closed page's renderer is counted once its parent reaps it, so a test can be
//   charged a little of the one before it; sums over a spec are sound);
// - `machine`: the whole machine's busy CPU-seconds over the same span (`/proc/stat`: the sites, Playwright, the rest).
//
// Linux only: it reads /proc.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

const TICKS_PER_SECOND = 100;

/** The CPU-seconds Chromium's live processes have used, with their reaped children's. */
function chromiumSeconds(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!command.startsWith('/usr/lib/chromium/') && !command.startsWith('/usr/bin/chromium')) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command's closing parenthesis: utime, stime, cutime and cstime are the 12th to 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/** The machine's busy CPU-seconds since boot (user, nice, system, irq, softirq, steal). */
function machineSeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

interface Row {
  spec: string;
  title: string;
  status: TestResult['status'];
  chromium: number;
  machine: number;
  wall: number;
}

const round = (value: number) => Math.round(value * 100) / 100;

export default class CpuReporter implements Reporter {
  readonly #output: string;
  readonly #started = new Map<string, { chromium: number; machine: number; at: number }>();
  readonly #rows: Row[] = [];

  constructor(options: { outputFile?: string } = {}) {
    this.#output = options.outputFile ?? 'test-results/e2e-cpu.json';
  }

  printsToStdio(): boolean {
    return false;
  }

  onTestBegin(test: TestCase): void {
    this.#started.set(test.id, { chromium: chromiumSeconds(), machine: machineSeconds(), at: Date.now() });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const started = this.#started.get(test.id);
    if (!started) return;
    this.#rows.push({
      spec: path.basename(test.location.file),
      title: test.titlePath().slice(3).join(' › '),
      status: result.status,
      chromium: round(chromiumSeconds() - started.chromium),
      machine: round(machineSeconds() - started.machine),
      wall: round((Date.now() - started.at) / 1000),
    });
  }

  onEnd(result: FullResult): void {
    const specs = new Map<string, { tests: number; chromium: number; machine: number; wall: number }>();
    for (const row of this.#rows) {
      const spec = specs.get(row.spec) ?? { tests: 0, chromium: 0, machine: 0, wall: 0 };
      spec.tests += 1;
      spec.chromium += row.chromium;
      spec.machine += row.machine;
      spec.wall += row.wall;
      specs.set(row.spec, spec);
    }
    const bySpec = [...specs]
      .map(([spec, sums]) => ({
        spec,
        tests: sums.tests,
        chromium: round(sums.chromium),
        machine: round(sums.machine),
        wall: round(sums.wall),
      }))
      .sort((a, b) => b.chromium - a.chromium);
    writeFileSync(
      this.#output,
      `${JSON.stringify({ status: result.status, bySpec, tests: this.#rows }, null, 1)}\n`,
    );
  }
}
