// Aggregates a V8 heap snapshot (node --heapsnapshot-signal, or v8.writeHeapSnapshot) for issue 59's memory hunts
// (decision 292): self size and count by node type:name, and ArrayBuffer backing stores (and other native bytes) by
// the path of their first retainers. With two snapshots, the difference object by object (b − a).
//
//   node --max-old-space-size=8000 scripts/diagnostics/heap-aggregate.mjs A.heapsnapshot [B.heapsnapshot] [--top 40]
//     [--depth 5] [--retained halfCache,sharedCells,curves]
//
// --retained: for each name, the bytes that only the targets of edges so named (a module variable in a closure's
// context, or a property) keep alive: the heap walked from the roots with and without them (a minute per name on a
// 170 MB snapshot).
// A retainer path is read upwards from the node through its first strong retainer at each step (weak edges and the
// snapshot's synthetic roots skipped), up to five steps: `Float64Array <-weights- Accumulator <-…`. It names where
// bytes hang, not who keeps them alive alone (a dominator tree would): read it with the code.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args[topAt + 1]) : 40;
const depthAt = args.indexOf('--depth');
const DEPTH = depthAt >= 0 ? Number(args[depthAt + 1]) : 5;
const valueAt = new Set(
  ['--top', '--depth', '--retained'].map((flag) => args.indexOf(flag) + 1).filter((i) => i > 0),
);
const files = args.filter((arg, i) => !arg.startsWith('--') && !valueAt.has(i));
if (files.length === 0) {
  console.error(
    'usage: heap-aggregate.mjs A.heapsnapshot [B.heapsnapshot] [--top N] [--depth N] [--retained name,name]',
  );
  process.exit(2);
}

function load(file) {
  const snapshot = JSON.parse(readFileSync(file, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const nodeFields = meta.node_fields;
  const edgeFields = meta.edge_fields;
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const NF = nodeFields.length;
  const EF = edgeFields.length;
  const nType = nodeFields.indexOf('type');
  const nName = nodeFields.indexOf('name');
  const nSize = nodeFields.indexOf('self_size');
  const nEdges = nodeFields.indexOf('edge_count');
  const eType = edgeFields.indexOf('type');
  const eName = edgeFields.indexOf('name_or_index');
  const eTo = edgeFields.indexOf('to_node');
  const { nodes, edges, strings } = snapshot;
  const count = nodes.length / NF;
  // First edge of each node, and the reverse index (retainers) as a CSR array.
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i += 1) {
    firstEdge[i] = e;
    e += nodes[i * NF + nEdges] * EF;
    firstEdge[i + 1] = e;
  }
  const retainerCount = new Uint32Array(count + 1);
  for (let e = 0; e < edges.length; e += EF) retainerCount[edges[e + eTo] / NF + 1] += 1;
  for (let i = 0; i < count; i += 1) retainerCount[i + 1] += retainerCount[i];
  const retainerStart = retainerCount.slice();
  const retainerEdge = new Uint32Array(edges.length / EF);
  const retainerFrom = new Uint32Array(edges.length / EF);
  for (let i = 0; i < count; i += 1)
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
      const to = edges[e + eTo] / NF;
      const slot = retainerStart[to]++;
      retainerEdge[slot] = e;
      retainerFrom[slot] = i;
    }
  const type = (i) => nodeTypes[nodes[i * NF + nType]];
  const name = (i) => {
    const t = type(i);
    const raw = strings[nodes[i * NF + nName]];
    if (t === 'string' || t === 'concatenated string' || t === 'sliced string') return '(string)';
    if (t === 'number') return '(number)';
    if (t === 'closure') return `closure ${raw || '(anonymous)'}`;
    if (t === 'code' && /^\d+$/.test(raw)) return '(code)';
    return raw.length > 60 ? `${raw.slice(0, 57)}...` : raw;
  };
  const size = (i) => nodes[i * NF + nSize];
  const edgeLabel = (e) => {
    const t = edgeTypes[edges[e + eType]];
    const n = edges[e + eName];
    // Indexes (and numeric property names) read as [] so that paths through arrays and maps group together.
    if (t === 'element' || t === 'hidden') return '[]';
    const label = String(strings[n]);
    return /^\d+$/.test(label) ? '[]' : label.replace(/@\d+/g, '@');
  };
  const isWeak = (e) => edgeTypes[edges[e + eType]] === 'weak';
  const isRootish = (i) => {
    const t = type(i);
    return t === 'synthetic' || (t === 'hidden' && name(i).startsWith('(')) || i === 0;
  };
  /** The first strong, non-synthetic retainer of node i (its edge and node), or undefined. */
  const firstRetainer = (i) => {
    for (let r = retainerCount[i]; r < retainerCount[i + 1]; r += 1) {
      const e = retainerEdge[r];
      const from = retainerFrom[r];
      if (isWeak(e) || isRootish(from)) continue;
      return { e, from };
    }
    return undefined;
  };
  const pathOf = (i, depth = DEPTH) => {
    const parts = [`${type(i)}:${name(i)}`];
    let at = i;
    const seen = new Set([at]);
    for (let d = 0; d < depth; d += 1) {
      const r = firstRetainer(at);
      if (!r || seen.has(r.from)) break;
      seen.add(r.from);
      parts.push(`<-${edgeLabel(r.e)}- ${type(r.from)}:${name(r.from)}`);
      at = r.from;
    }
    return parts.join(' ');
  };
  const byKind = new Map();
  const natives = new Map();
  let total = 0;
  for (let i = 0; i < count; i += 1) {
    const key = `${type(i)}:${name(i)}`;
    const s = size(i);
    total += s;
    const entry = byKind.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += s;
    byKind.set(key, entry);
    // Backing stores and other native bytes, and arrays' element stores: grouped by where they hang.
    if (type(i) === 'native' || key === 'array:(object elements)') {
      const where = pathOf(i);
      const n = natives.get(where) ?? { count: 0, bytes: 0 };
      n.count += 1;
      n.bytes += s;
      natives.set(where, n);
    }
  }
  /**
   * Retained size of what the edges named `name` point at (a module's variable, held in a closure's context, or a
   * property): the bytes that become unreachable from the roots when those targets are taken out (one walk each).
   */
  const retainedBy = (edgeName) => {
    const targets = new Set();
    for (let e = 0; e < edges.length; e += EF) {
      const t = edgeTypes[edges[e + eType]];
      if ((t === 'context' || t === 'property') && strings[edges[e + eName]] === edgeName)
        targets.add(edges[e + eTo] / NF);
    }
    if (targets.size === 0) return undefined;
    const walk = (without) => {
      const seen = new Uint8Array(count);
      const stack = [0];
      seen[0] = 1;
      for (const t of without) seen[t] = 1;
      let bytes = 0;
      while (stack.length) {
        const i = stack.pop();
        if (!without.has(i)) bytes += size(i);
        for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += EF) {
          if (isWeak(e)) continue;
          const to = edges[e + eTo] / NF;
          if (!seen[to]) {
            seen[to] = 1;
            stack.push(to);
          }
        }
      }
      return bytes;
    };
    const all = walk(new Set());
    const rest = walk(targets);
    return { targets: targets.size, bytes: all - rest };
  };
  return { file, count, total, byKind, natives, retainedBy };
}

const mb = (bytes) => (bytes / 1048576).toFixed(2);
const table = (title, map, top) => {
  console.log(`\n## ${title}`);
  const rows = [...map].sort((x, y) => Math.abs(y[1].bytes) - Math.abs(x[1].bytes)).slice(0, top);
  for (const [key, { count, bytes }] of rows)
    console.log(`${mb(bytes).padStart(9)} MB ${String(count).padStart(9)}  ${key}`);
};

const snaps = files.map(load);
for (const s of snaps) {
  console.log(`\n# ${s.file}: ${s.count} nodes, ${mb(s.total)} MB self size`);
  table('self size by type:name', s.byKind, TOP);
  table("native bytes and arrays' elements by retainer path", s.natives, TOP);
}
const retainedAt = args.indexOf('--retained');
if (retainedAt >= 0) {
  const names = args[retainedAt + 1].split(',');
  for (const s of snaps) {
    console.log(`\n## retained by name: ${s.file}`);
    for (const name of names) {
      const r = s.retainedBy(name);
      console.log(
        `${r ? mb(r.bytes).padStart(9) : '        -'} MB ${String(r?.targets ?? 0).padStart(4)}  ${name}`,
      );
    }
  }
}
if (snaps.length === 2) {
  const [a, b] = snaps;
  const diff = (ma, mb2) => {
    const out = new Map();
    for (const key of new Set([...ma.keys(), ...mb2.keys()])) {
      const x = ma.get(key) ?? { count: 0, bytes: 0 };
      const y = mb2.get(key) ?? { count: 0, bytes: 0 };
      if (x.bytes !== y.bytes || x.count !== y.count)
        out.set(key, { count: y.count - x.count, bytes: y.bytes - x.bytes });
    }
    return out;
  };
  console.log(`\n# difference ${b.file} − ${a.file}: ${mb(b.total - a.total)} MB self size`);
  table('self size by type:name (b − a)', diff(a.byKind, b.byKind), TOP);
  table("native bytes and arrays' elements by retainer path (b − a)", diff(a.natives, b.natives), TOP);
}
