// Jest's node environment that also writes, for each test file, the CPU time its worker spent on it
// (the worker itself and every child it started and reaped: services, the hush command line,
// Chromium) and the wall time, one JSON line per file to the file HUSH_TEST_CPU names:
//   HUSH_TEST_CPU=/tmp/cpu.jsonl pnpm jest ... && node packages/testing/jest/cpu-report.mjs /tmp/cpu.jsonl
// PostgreSQL and Redis are servers of their own, so their share is not in these figures.
// jest.config.js uses it only when HUSH_TEST_CPU is set.
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';

// jest-environment-node is Jest's own dependency, reached from Jest's folder.
const fromJest = createRequire(createRequire(import.meta.url).resolve('jest'));
const { TestEnvironment } = fromJest('jest-environment-node');

const TICKS_PER_SECOND = 100;

/** This process's CPU seconds: its own and those of its children it has waited for (/proc/self/stat). */
function cpuSeconds() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime and cstime are fields 14 to 17 of the line, 12 to 15 after the name.
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return { self: (utime + stime) / TICKS_PER_SECOND, children: (cutime + cstime) / TICKS_PER_SECOND };
}

export default class CpuEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.file = relative(config.projectConfig.rootDir, context.testPath);
  }

  async setup() {
    this.started = { at: Date.now(), cpu: cpuSeconds() };
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    const cpu = cpuSeconds();
    const line = {
      file: this.file,
      pid: process.pid,
      wall: (Date.now() - this.started.at) / 1000,
      self: +(cpu.self - this.started.cpu.self).toFixed(2),
      children: +(cpu.children - this.started.cpu.children).toFixed(2),
    };
    appendFileSync(process.env.HUSH_TEST_CPU, `${JSON.stringify(line)}\n`);
  }
}
