// Jest's node environment, writing for each test file the CPU time its
// worker spent on it (the worker itself and the processes below it, sampled: services and the hush
// command line) and the wall time, one JSON line per file to the file HUSH_TEST_CPU names
// (jest.config.js uses it only then):
//   HUSH_TEST_CPU=/tmp/cpu.jsonl pnpm jest ... && node packages/testing/jest/cpu-report.mjs /tmp/cpu.jsonl
// PostgreSQL, Redis and the run's Chromium (chromium-server.mjs) are processes of their own, so their
// share is not in these figures.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

import HushEnvironment from './environment.mjs';

const TICKS_PER_SECOND = 100;
const SAMPLE_MS = 50;

/** A process's own CPU ticks (utime + stime, fields 14 and 15 of /proc/<pid>/stat) and its start time (field 22); none once it is gone. */
function ownTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ticks: Number(fields[11]) + Number(fields[12]), started: fields[19] };
  } catch {
    return undefined;
  }
}

function childrenOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  } catch {
    return [];
  }
}

/**
 * The processes below this worker, sampled every SAMPLE_MS: the latest CPU ticks seen of each. A
 * process's children are not all waited for by it (a child that outlives its parent is reaped by
 * init), so what a process reaped is left out and every process is counted by its own ticks: only a
 * process's last few milliseconds are missed.
 */
class Descendants {
  seen = new Map();
  /** The CPU the sampling itself cost this process (µs), left out of the file's figure. */
  cost = 0;

  sample() {
    const before = process.cpuUsage();
    this.walk(process.pid);
    const { user, system } = process.cpuUsage(before);
    this.cost += user + system;
  }

  walk(pid) {
    for (const child of childrenOf(pid)) {
      const own = ownTicks(child);
      if (own) this.seen.set(`${child}@${own.started}`, own.ticks);
      this.walk(child);
    }
  }

  total() {
    let ticks = 0;
    for (const value of this.seen.values()) ticks += value;
    return ticks / TICKS_PER_SECOND;
  }
}

/** This process's own CPU seconds. */
function selfSeconds() {
  return ownTicks('self').ticks / TICKS_PER_SECOND;
}

export default class CpuEnvironment extends HushEnvironment {
  constructor(config, context) {
    super(config, context);
    this.file = relative(config.projectConfig.rootDir, context.testPath);
  }

  async setup() {
    // What runs already counts from here on.
    const before = new Descendants();
    before.sample();
    before.cost = 0;
    this.descendants = before;
    this.started = { at: Date.now(), self: selfSeconds(), children: before.total() };
    this.sampling = setInterval(() => this.descendants.sample(), SAMPLE_MS);
    this.sampling.unref();
    await super.setup();
  }

  async teardown() {
    await super.teardown();
    clearInterval(this.sampling);
    this.descendants.sample();
    const line = {
      file: this.file,
      pid: process.pid,
      wall: (Date.now() - this.started.at) / 1000,
      self: +(selfSeconds() - this.started.self - this.descendants.cost / 1e6).toFixed(2),
      children: +(this.descendants.total() - this.started.children).toFixed(2),
    };
    appendFileSync(process.env.HUSH_TEST_CPU, `${JSON.stringify(line)}\n`);
  }
}
