import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../logging/logger.js';

type CollectGarbage = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface IdleCompactionOptions {
  logger: Logger;
  /** How often the event loop's utilisation is sampled (ms). */
  intervalMs?: number;
  /** A window below this utilisation is quiet. */
  quietBelow?: number;
  /** Growth of the resident set (bytes) since the last compaction that makes a quiet window compact again. */
  growthBytes?: number;
}

export interface IdleCompaction {
  /** Compactions done so far. */
  readonly count: number;
  stop(): void;
}

/**
 * Hands memory back to the system when the process falls quiet. V8 grows its heaps
 * while a process starts and while it is under load, and gives the memory back only when its
 * memory reducer happens to run, seconds to minutes later or not at all: an idle container kept
 * 30-150 MB it did not need. Here the event loop's utilisation is sampled every `intervalMs`; the
 * first quiet window after start, and any later quiet window once the resident set has grown by
 * `growthBytes` since the last compaction, run one full collection in V8's memory-reducing mode
 * (the one it uses on memory pressure: old generation compacted, young generation shrunk, free
 * pages released). It pauses the process for 20-100 ms, only after a window in which the event
 * loop was less than 5% busy, so a request rarely meets it.
 *
 * The collection is taken from V8 through a throw-away context, so `gc` never becomes a global.
 */
export function compactWhenIdle({ logger, intervalMs = 2000, quietBelow = 0.05, growthBytes = 16 * 1024 * 1024 }: IdleCompactionOptions): IdleCompaction {
  const collect = collector();
  let count = 0;
  // The lowest resident set since the last compaction (0 before the first: the first quiet
  // window after start compacts).
  let baseline = 0;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const quiet = performance.eventLoopUtilization(now, last).utilization < quietBelow;
    last = now;
    if (!quiet) return;
    const rss = process.memoryUsage.rss();
    if (rss < baseline + growthBytes) {
      if (count > 0) baseline = Math.min(baseline, rss);
      return;
    }
    const started = performance.now();
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    baseline = process.memoryUsage.rss();
    count++;
    // What the pause cost shows up in the next window, which is then not quiet: skip it.
    last = performance.eventLoopUtilization();
    logger.debug({ rssBefore: rss, rssAfter: baseline, pauseMs: Math.round(performance.now() - started) }, 'idle compaction');
  }, intervalMs);
  timer.unref();
  return {
    get count() {
      return count;
    },
    stop: () => clearInterval(timer),
  };
}

function collector(): CollectGarbage {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as CollectGarbage;
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as CollectGarbage;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
