// Synthetic background work for the feed bench's "bare server with a background" targets (BENCH_FEED_BURN, decision
// 314): every 250 ms, three chunks a turn apart (like the simulator's step, its ingest and the engine's tick) that
// together take BURN_CORES of a core. With BURN_ALLOC=1 the chunks also allocate objects that live ~12 s over a
// ~100 MB heap of objects that live for ever, as the server's background does over its heap; without it they only
// spin. Loaded with eval on a bare server's main thread (BURN_WHERE=main) or in a worker thread of it (worker).
const spin = (ms) => {
  const end = performance.now() + ms;
  let turns = 0;
  while (performance.now() < end) turns += 1;
  return turns;
};
const share = (Number(process.env.BURN_CORES) * 250) / 3;
const alloc = process.env.BURN_ALLOC === '1';
const kept = [];
if (alloc)
  for (let i = 0; i < 1_200_000; i += 1)
    kept.push({ id: i, price: i * 1.5, book: `b${i % 97}`, at: Date.now() });
const recent = [];
const chunk = () => {
  const end = performance.now() + share;
  if (alloc) {
    const batch = [];
    for (let i = 0; i < 14_000; i += 1)
      batch.push({ id: i, price: i * 0.5, book: `x${i % 31}`, outcomes: [i, i + 1] });
    recent.push(batch);
    if (recent.length > 48) recent.shift();
  }
  spin(Math.max(0, end - performance.now()));
};
setInterval(() => {
  chunk();
  setImmediate(() => {
    chunk();
    setImmediate(chunk);
  });
}, 250);
