// `npm start`: builds the site when the build is missing or older than its sources, then runs the server in this
// process (so SIGTERM/SIGINT reach server.ts directly).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const BUILD_MARKER = path.join(root, 'build/client/index.html');
const SOURCES = [
  'src/web',
  'src/domain',
  'public',
  'vite.config.ts',
  'react-router.config.ts',
  'package-lock.json',
];

function newestMtime(target) {
  const full = path.join(root, target);
  if (!existsSync(full)) return 0;
  const stats = statSync(full);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const builtAt = existsSync(BUILD_MARKER) ? statSync(BUILD_MARKER).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map(newestMtime));
if (builtAt === 0 || sourcesAt > builtAt) {
  console.error(
    builtAt === 0
      ? 'No build found: building the site...'
      : 'Sources changed since the last build: rebuilding...',
  );
  execFileSync(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.js'), 'build'], {
    stdio: 'inherit',
  });
}

const { register } = await import('tsx/esm/api');
register();
await import('../src/server/server.ts');
