// Records the market simulator as a replay file (docs/reference/replay-format.md):
//   npx tsx scripts/record-replay.ts --seed 7 --seconds 120 [--events 110] > data/sim-7.jsonl
// then serve it with ODDS_SOURCE=replay:data/sim-7.jsonl.
import { parseArgs } from 'node:util';
import { recordSimulation } from '#engine/sources/replay.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '42' },
    seconds: { type: 'string', default: '60' },
    events: { type: 'string', default: '110' },
  },
});
process.stdout.write(
  recordSimulation({
    seed: Number(values.seed),
    seconds: Number(values.seconds),
    events: Number(values.events),
  }),
);
