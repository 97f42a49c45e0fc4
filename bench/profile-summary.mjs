#!/usr/bin/env node
// Summary of a CPU profile written by `node --cpu-prof` (bench/secrets-api.mjs --profile <dir>):
// busy share of the process, then the functions with the most self time, as % of busy time, and
// the same time grouped by package (node_modules/<name>, node: internals, our dist/ code).
//
//   node bench/profile-summary.mjs <dir or file.cpuprofile> [top=25]
// A directory: its largest profile (the main thread; bcrypt's worker threads write their own).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [target, topArg = '25'] = process.argv.slice(2);
const file = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0]
  : target;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
let total = 0;
let idle = 0;
const fns = new Map();
const groups = new Map();
const groupOf = (url, name) => {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const d = /(services|packages)\/([^/]+)\//.exec(url);
  return d ? `${d[1]}/${d[2]}` : url;
};
for (const [id, t] of self) {
  const node = byId.get(id);
  const { functionName, url, lineNumber } = node.callFrame;
  total += t;
  if (functionName === '(idle)' || functionName === '(program)') {
    if (functionName === '(idle)') idle += t;
    if (functionName === '(idle)') continue;
  }
  const key = `${functionName || '(anonymous)'} ${url ? url.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '').replace(/^file:\/\/.*\/(services|packages)\//, '$1/') : ''}:${lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + t);
  const g = groupOf(url, functionName);
  groups.set(g, (groups.get(g) ?? 0) + t);
}
const busy = total - idle;
const pct = (t) => ((100 * t) / busy).toFixed(1).padStart(5) + '%';
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, busy ${((100 * busy) / total).toFixed(0)}%`);
console.log('\nTop self time (% of busy):');
for (const [k, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) console.log(`${pct(t)}  ${k}`);
console.log('\nBy package (% of busy):');
for (const [k, t] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(t)}  ${k}`);
