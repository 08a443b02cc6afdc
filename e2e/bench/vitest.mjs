// Turns a `vitest bench --outputJson` report into benchmark figures (JSON
// lines {name, value, unit}): each bench's median and p99 in ms, named
// after the bench (whose name is the figure's, e.g.
// frontend.store.load_10k_messages).
//
//   node e2e/bench/vitest.mjs report.json >>results.jsonl
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const file of report.files) {
  for (const group of file.groups) {
    for (const b of group.benchmarks) {
      console.log(JSON.stringify({ name: `${b.name}.median`, value: b.median, unit: 'ms' }));
      console.log(JSON.stringify({ name: `${b.name}.p99`, value: b.p99, unit: 'ms' }));
    }
  }
}
