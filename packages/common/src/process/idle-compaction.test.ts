import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compactWhenIdle } from './idle-compaction.js';
import { createLogger } from '../logging/logger.js';

const logger = createLogger({ name: 'idle-compaction-test', level: 'silent' });
const MB = 1024 * 1024;
const here = dirname(fileURLToPath(import.meta.url));

describe('compactWhenIdle', () => {
  it('gives the memory of a busy spell back once the process is quiet, then waits for new growth', async () => {
    // In a process of its own, as the services run it (compiled; Jest's own heap would blur RSS).
    const module = pathToFileURL(join(here, '..', '..', 'dist', 'process', 'idle-compaction.js')).href;
    const script = `
      import { compactWhenIdle } from ${JSON.stringify(module)};
      const logger = { debug() {} };
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      // ~60 MB of objects that live long enough to reach the old generation, then become garbage.
      let held = [];
      for (let chunk = 0; chunk < 6; chunk++) { held.push(Array.from({ length: 100000 }, (_, i) => ({ i, s: 'value ' + chunk + ':' + i }))); await sleep(5); }
      const grown = process.memoryUsage.rss();
      held = undefined;
      const compaction = compactWhenIdle({ logger, intervalMs: 200 });
      while (compaction.count === 0) await sleep(20);
      const after = process.memoryUsage.rss();
      await sleep(1000);
      console.log(JSON.stringify({ grown, after, first: 1, later: compaction.count }));
      compaction.stop();
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    const result = JSON.parse(out) as { grown: number; after: number; later: number };
    expect(result.after).toBeLessThan(result.grown - 30 * MB);
    // Quiet and no growth since: no further compaction.
    expect(result.later).toBe(1);
  });

  it('never compacts while the event loop is busy', async () => {
    const compaction = compactWhenIdle({ logger, intervalMs: 100 });
    try {
      // Busy for 800 ms: the loop is blocked in turns of 60 ms with a short pause between.
      const end = Date.now() + 800;
      while (Date.now() < end) {
        const turn = Date.now() + 60;
        while (Date.now() < turn) {
          /* busy */
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(compaction.count).toBe(0);
    } finally {
      compaction.stop();
    }
  });

  it('does not make gc a global', () => {
    compactWhenIdle({ logger, intervalMs: 100_000 }).stop();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
