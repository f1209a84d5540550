// `npm run bench`: runs every bench/*.bench.ts in turn (each prints its figures and writes bench/results/*.json).
// `npm run bench -- feed` runs only the benches whose file name contains "feed".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const filter = process.argv[2];
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts') && (!filter || file.includes(filter)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
