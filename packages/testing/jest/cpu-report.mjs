#!/usr/bin/env node
// The CPU figures cpu-environment.mjs wrote, the costliest files first; with a second file, the
// two runs side by side (before, after):
//   node packages/testing/jest/cpu-report.mjs /tmp/cpu.jsonl [/tmp/cpu-after.jsonl] [--top=15]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith('--top='))?.slice(6) ?? 15);
const [first, second] = args.filter((a) => !a.startsWith('--'));

function read(path) {
  const files = new Map();
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const { file, wall, self, children } = JSON.parse(line);
    files.set(file, { wall, cpu: self + children, self, children });
  }
  return files;
}
const sum = (files, key) => [...files.values()].reduce((total, f) => total + f[key], 0);
const s = (n) => (n === undefined ? '-' : n.toFixed(1)).padStart(7);

const before = read(first);
const after = second ? read(second) : undefined;
const rows = [...before].sort(([, a], [, b]) => b.cpu - a.cpu).slice(0, top);
if (after) for (const [file] of [...after].sort(([, a], [, b]) => b.cpu - a.cpu).slice(0, top)) if (!rows.some(([name]) => name === file)) rows.push([file, before.get(file)]);
process.stdout.write(
  after
    ? `${'cpu s'.padStart(7)}${'wall s'.padStart(7)} ->${'cpu s'.padStart(7)}${'wall s'.padStart(7)}  file\n`
    : `${'cpu s'.padStart(7)}${'self'.padStart(7)}${'child'.padStart(7)}${'wall s'.padStart(7)}  file\n`,
);
for (const [file, f] of rows) {
  if (after) process.stdout.write(`${s(f?.cpu)}${s(f?.wall)} ->${s(after.get(file)?.cpu)}${s(after.get(file)?.wall)}  ${file}\n`);
  else process.stdout.write(`${s(f.cpu)}${s(f.self)}${s(f.children)}${s(f.wall)}  ${file}\n`);
}
const total = (files) =>
  `${files.size} files, cpu ${sum(files, 'cpu').toFixed(0)} s (workers ${sum(files, 'self').toFixed(0)}, children ${sum(files, 'children').toFixed(0)}), wall summed ${sum(files, 'wall').toFixed(0)} s`;
process.stdout.write(`${after ? 'before: ' : ''}${total(before)}\n`);
if (after) process.stdout.write(`after:  ${total(after)}\n`);
