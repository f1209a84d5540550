import { execFile, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '../support/e2e.ts';
import { emailsTo } from '../support/outbox-files.ts';

// The quickstart of /docs (decision 158) against the real server: a trial key comes by email as step 1 says, then
// each snippet's text, as the page shows it once the key is typed in, is run: curl through bash, the JavaScript in
// the page (fetch, EventSource), the Python with python3 and requests. A wrong URL, header or parameter in a snippet
// makes its request fail, or answer something other than what the snippet asks for, and so the test.

let key = '';

/** A /v1/odds answer or a stream snapshot, as the tests read them. */
type OddsAnswer = {
  as_of: string;
  events: { event: { league: string }; markets: { type: string; main: boolean; stat?: string }[] }[];
};

test.beforeAll(async ({ request, baseURL }) => {
  // The email is sent by the outbox worker, which a busy machine can keep waiting past the default 30 s.
  test.setTimeout(90_000);
  const dataDir = path.resolve(`data/e2e-${new URL(baseURL!).port}`);
  const address = `docs.${Date.now().toString(36)}@example.com`;
  const response = await request.post('/api/trial-requests', {
    data: {
      name: 'Ada Lovelace',
      email: address,
      company: '',
      timestamp: new Date().toISOString(),
      userAgent: 'docs.spec',
      referrer: 'Direct',
    },
  });
  expect(response.ok()).toBe(true);
  await expect.poll(() => emailsTo(dataDir, address).length, { timeout: 60_000 }).toBe(1);
  const eml = emailsTo(dataDir, address)[0]!;
  key = /sl_trial_[0-9A-Za-z]{32}/.exec(eml)![0];
  // Step 1 names the email's subject: it is the one that arrives.
  expect(eml).toContain('Subject: Your Sharpline trial API key');
});

/** /docs with the key typed into the quickstart's field. */
async function openDocs(page: Page): Promise<void> {
  await page.goto('/docs');
  await page.getByLabel(/Paste your key/).fill(key);
}

const snippet = (page: Page, name: string) => page.locator(`[data-snippet="${name}"]`).textContent();

/** Runs `script` with bash; resolves with its stdout, rejects when it fails. */
function bash(script: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['-c', script],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** Starts `script` with bash and resolves with its output once `done(output)` holds; the process is then stopped. */
function bashUntil(script: string, done: (output: string) => boolean, env: Record<string, string> = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env: { ...process.env, ...env }, detached: true });
    let output = '';
    let errors = '';
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (done(output)) {
        stop();
        resolve(output);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.on('exit', (code) =>
      reject(new Error(`exited (${code}) before the expected output:\n${output}\n${errors}`)),
    );
    setTimeout(() => {
      stop();
      reject(new Error(`no expected output within 60 s:\n${output}\n${errors}`));
    }, 60_000);
  });
}

/** The first `data:` of the SSE event `name` in `output`, parsed. */
function sseData(output: string, name: string): unknown {
  const match = new RegExp(`^event: ${name}\\ndata: (.*)$`, 'm').exec(output);
  return match ? JSON.parse(match[1]!) : undefined;
}

const hasRequests = (() => {
  try {
    execFileSync('python3', ['-c', 'import requests']);
    return true;
  } catch {
    return false;
  }
})();

test('the quickstart names this server and fills the typed key into every snippet', async ({
  page,
  baseURL,
}) => {
  await openDocs(page);
  expect(await snippet(page, 'key-shell')).toBe(`export SHARPLINE_KEY='${key}'`);
  for (const name of ['call-curl', 'call-js', 'call-python', 'stream-curl', 'stream-js', 'stream-python']) {
    const text = (await snippet(page, name))!;
    expect(text, name).toContain(baseURL!);
    expect(text, name).not.toContain('sharpline.io');
  }
  expect(await snippet(page, 'call-js')).toContain(`const key = '${key}'`);
});

test('the curl snippets run as pasted: first call, first stream, player props', async ({ page }) => {
  // Three processes and a retried request on a server that may have just started: more than the default 30 s.
  test.setTimeout(150_000);
  await openDocs(page);
  const exportLine = (await snippet(page, 'key-shell'))!;

  const call = JSON.parse(await bash(`${exportLine}\n${await snippet(page, 'call-curl')}`)) as OddsAnswer;
  expect(call.as_of).toMatch(/^\d{4}-/);
  expect(Array.isArray(call.events)).toBe(true);
  for (const { event, markets } of call.events) {
    expect(event.league).toBe('nba');
    for (const market of markets) expect(market).toMatchObject({ type: 'moneyline', main: true });
  }

  const stream = await bashUntil(`${exportLine}\n${await snippet(page, 'stream-curl')}`, (output) =>
    /^event: snapshot\ndata: .*\n/m.test(output),
  );
  const snapshot = sseData(stream, 'snapshot') as OddsAnswer;
  expect(Array.isArray(snapshot.events)).toBe(true);
  for (const { event, markets } of snapshot.events) {
    expect(event.league).toBe('nba');
    for (const market of markets) expect(market.type).toBe('moneyline');
  }

  // The player-props example returns props on the demo (the trial key's 15 s delay can leave the first answers of a
  // server that just started empty).
  const props = (await snippet(page, 'props-curl'))!;
  await expect(async () => {
    const answer = JSON.parse(await bash(`${exportLine}\n${props}`)) as OddsAnswer;
    const markets = answer.events.flatMap((event) => event.markets);
    expect(markets.length).toBeGreaterThan(0);
    for (const market of markets)
      expect(market).toMatchObject({ type: 'prop', stat: 'player_points', main: true });
  }).toPass({ timeout: 60_000 });
});

test('the JavaScript snippets run in the page: fetch, then EventSource with the key in ?api_key=', async ({
  page,
}) => {
  await openDocs(page);
  const logs: string[] = [];
  page.on('console', (message) => logs.push(message.text()));

  const call = (await snippet(page, 'call-js'))!;
  await page.evaluate(`(async () => {\n${call}\n})()`);
  expect(logs.find((line) => line.startsWith('200 '))).toMatch(/^200 \d{4}-\S+ \d+ events$/);

  const stream = (await snippet(page, 'stream-js'))!;
  expect(stream).toContain('&api_key=');
  const snapshot = page.waitForEvent('console', (message) => /^snapshot \d+ events$/.test(message.text()));
  await page.evaluate(`(() => {\n${stream}\n})()`);
  await snapshot;
  expect(logs).not.toContain('disconnected; EventSource reconnects with Last-Event-ID');
});

test('the Python snippets run with requests: first call and first stream', async ({ page, baseURL }) => {
  await openDocs(page);
  const exportLine = (await snippet(page, 'key-shell'))!;
  const call = (await snippet(page, 'call-python'))!;
  const stream = (await snippet(page, 'stream-python'))!;
  if (hasRequests) {
    const output = await bash(`${exportLine}\npython3 -c "$SNIPPET"`, { SNIPPET: call });
    expect(output).toMatch(/^200 \d{4}-\S+ \d+ events$/m);
    const streamed = await bashUntil(
      `${exportLine}\npython3 -c "$SNIPPET"`,
      (text) => /^snapshot \d+ events$/m.test(text),
      { SNIPPET: stream },
    );
    expect(streamed).toMatch(/^snapshot \d+ events$/m);
    return;
  }
  // Without requests on this machine: the same requests, read from the snippets' URL, params and headers.
  for (const [text, path] of [
    [call, '/v1/odds'],
    [stream, '/v1/stream'],
  ] as const) {
    expect(text).toContain(`"${baseURL}${path}"`);
    const params = Object.fromEntries(
      [.../params=\{([^}]*)\}/.exec(text)![1]!.matchAll(/"(\w+)": "([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    const header = /headers=\{"([^"]+)": os\.environ\["SHARPLINE_KEY"\]\}/.exec(text)![1]!;
    const controller = new AbortController();
    const response = await fetch(`${baseURL}${path}?${new URLSearchParams(params)}`, {
      headers: { [header]: key },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    controller.abort();
  }
});

test('copy buttons copy a snippet as shown, and the language tabs switch every group', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openDocs(page);
  const quickstart = page.locator('.quickstart');
  await expect(quickstart.locator('#panel-call-curl')).toBeVisible();
  await expect(quickstart.locator('#panel-call-python')).toBeHidden();
  await quickstart.locator('#panel-call-curl').getByRole('button', { name: 'Copy code' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await snippet(page, 'call-curl'));

  await quickstart.getByRole('tab', { name: 'Python' }).first().click();
  await expect(quickstart.locator('#panel-call-python')).toBeVisible();
  await expect(quickstart.locator('#panel-stream-python')).toBeVisible();
  await expect(quickstart.locator('#panel-call-curl')).toBeHidden();
});

// Lighthouse's accessibility audit (axe, WCAG 2.2 AA included) found the content types' grey at 4.23:1 and the
// examples' 23 px summaries, under the 24 px a touch target needs; both at a phone's width and a desktop's.
for (const width of [390, 1280]) {
  test(`the reference has no axe violations at ${width} px, WCAG 2.2 AA included`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/docs');
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(
      results.violations.map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      ),
    ).toEqual([]);
  });
}
