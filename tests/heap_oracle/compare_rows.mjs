// node compare_rows.mjs ORACLE.json NETTRACE_HEAP.json: the per-type rows of the heap reference
// (count, shallow size, PerfView-inclusive size) against `nettrace heap`'s, exactly; exit 1 on
// the first differences (printed).
import { readFileSync } from 'node:fs';

const [oraclePath, oursPath] = process.argv.slice(2);
const oracle = JSON.parse(readFileSync(oraclePath, 'utf8'));
const ours = JSON.parse(readFileSync(oursPath, 'utf8'));
const key = (r) => `${r.name}\u0001${r.module}`;
const mine = new Map(ours.types.map((r) => [key(r), r]));
const problems = [];
for (const r of oracle.rows) {
  const m = mine.get(key(r));
  if (!m) problems.push(`missing ${r.name}`);
  else if (m.count !== r.count || m.size !== r.size || m.inclusive !== r.inclusive)
    problems.push(`${r.name}: reference ${r.count}/${r.size}/${r.inclusive}, ours ${m.count}/${m.size}/${m.inclusive}`);
  mine.delete(key(r));
}
for (const k of mine.keys()) problems.push(`extra ${k}`);
if (problems.length > 0) {
  console.error(`${oursPath}: ${problems.length} rows differ from the reference:\n${problems.slice(0, 20).join('\n')}`);
  process.exit(1);
}
console.log(`${oursPath}: ${oracle.rows.length} rows equal the reference (count, size, PerfView inclusive)`);
