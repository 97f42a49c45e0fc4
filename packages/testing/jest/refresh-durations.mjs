#!/usr/bin/env node
// Rewrites durations.mjs from the JSON report of a whole run, so the sequencer starts the slowest
// files first on a clean clone too:
//   pnpm jest --json --outputFile=/tmp/jest.json && node packages/testing/jest/refresh-durations.mjs /tmp/jest.json
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const SLOWEST_FROM_SECONDS = 15;

const report = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8'));
const rows = report.testResults
  .map((result) => [relative(root, result.name), Math.round((result.endTime - result.startTime) / 1000)])
  .filter(([, seconds]) => seconds >= SLOWEST_FROM_SECONDS)
  .sort((a, b) => b[1] - a[1]);
const lines = [
  '// Seconds each of the slowest test files took on a whole run (three workers on a two-core machine',
  '// that other work kept busy; only the order matters); sequencer.mjs starts them first. Refresh',
  '// with refresh-durations.mjs from the JSON report of a whole run when files are added or trimmed.',
  'export const measuredSeconds = {',
  ...rows.map(([file, seconds]) => `  '${file}': ${seconds},`),
  '};',
  '',
];
writeFileSync(join(here, 'durations.mjs'), lines.join('\n'));
process.stdout.write(`${rows.length} files of ${report.testResults.length} at ${SLOWEST_FROM_SECONDS} s or more\n`);
