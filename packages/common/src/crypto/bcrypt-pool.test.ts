import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BcryptPool, BcryptPoolBusyError } from './bcrypt-pool.js';

// A cost-4 salt: bcrypt with it takes ~1 ms, so the pool, not bcrypt, is what these tests exercise.
const COST = 4;

/** Resolves once `pool` has ended all its workers (they end on their idle timer; nothing else tells). */
async function allEnded(pool: BcryptPool): Promise<void> {
  while (pool.workers > 0) await sleep(10);
}

/** A pool for one test, closed after it. */
async function withPool(options: ConstructorParameters<typeof BcryptPool>[0], use: (pool: BcryptPool) => Promise<void>): Promise<void> {
  const pool = new BcryptPool(options);
  try {
    await use(pool);
  } finally {
    await pool.close();
  }
}

describe('the bcrypt pool', () => {
  it('spawns workers only for work, ends them once idle, and spawns them again for new work', () =>
    withPool({ size: 2, queue: 10, idleMs: 200 }, async (pool) => {
      expect(pool.workers).toBe(0);
      const first = await Promise.all([pool.hash('a', COST), pool.hash('b', COST), pool.hash('c', COST)]);
      expect(first.every((hash) => /^\$2b\$04\$/.test(hash))).toBe(true);
      expect(pool.workers).toBeGreaterThan(0);
      expect(pool.workers).toBeLessThanOrEqual(2);
      await allEnded(pool);
      const again = await pool.hash('a', first[0].slice(0, 29));
      expect(again).toBe(first[0]);
      expect(pool.workers).toBe(1);
    }));

  it('with idleMs 0 keeps its workers after a pool with a timer has ended its own', () =>
    withPool({ size: 1, queue: 1, idleMs: 0 }, (kept) =>
      withPool({ size: 1, queue: 1, idleMs: 50 }, async (ending) => {
        await Promise.all([kept.hash('a', COST), ending.hash('a', COST)]);
        await allEnded(ending);
        expect(kept.workers).toBe(1);
      }),
    ));

  it('runs bcrypt at the lowest CPU priority: on Linux its worker threads alone are at nice 19', () =>
    withPool({ size: 2, queue: 4, idleMs: 0 }, async (pool) => {
      if (process.platform !== 'linux') return;
      const niceOf = (task: string) => {
        const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const main = niceOf(String(process.pid));
      await Promise.all([pool.hash('a', COST), pool.hash('b', COST)]);
      // The pool's workers, new or taken from a pool closed earlier in this process, are among the
      // threads at nice 19 (the process's other threads are not bcrypt's, and none of them is).
      const niced = readdirSync('/proc/self/task')
        .map(niceOf)
        .filter((nice) => nice === 19).length;
      expect(pool.workers).toBeGreaterThanOrEqual(1);
      expect(niced).toBeGreaterThanOrEqual(pool.workers);
      expect(main).not.toBe(19);
      expect(niceOf(String(process.pid))).toBe(main);
    }));

  it('hands a closed pool’s idle workers to the next pool of the process instead of starting new threads', async () => {
    if (process.platform !== 'linux') return;
    const threads = () => new Set(readdirSync('/proc/self/task'));
    await withPool({ size: 2, queue: 4, idleMs: 0 }, async (first) => {
      await Promise.all([first.hash('a', COST), first.hash('b', COST)]);
      expect(first.workers).toBe(2);
    });
    const before = threads();
    await withPool({ size: 2, queue: 4, idleMs: 0 }, async (next) => {
      const [a] = await Promise.all([next.hash('a', COST), next.hash('b', COST)]);
      expect(await next.compare('a', a)).toBe(true);
      expect(next.workers).toBe(2);
      expect([...threads()].filter((thread) => !before.has(thread))).toEqual([]);
    });
  });

  it('compares a password with a hash in a worker: true for the right one, false for another and for what is no bcrypt hash', () =>
    withPool({ size: 1, queue: 4 }, async (pool) => {
      const hash = await pool.hash('right', COST);
      expect(await Promise.all([pool.compare('right', hash), pool.compare('wrong', hash), pool.compare('right', '!')])).toEqual([true, false, false]);
    }));
});

describe('the bcrypt pool when full', () => {
  it('refuses a job beyond its workers and queue at once, with a Retry-After, before any queued job has run; then takes work again', () =>
    withPool({ size: 1, queue: 2 }, async (pool) => {
      const settled: string[] = [];
      const queued = [0, 1, 2].map((i) => pool.hash(`p${i}`, COST).then(() => settled.push(`hash ${i}`)));
      const refused = pool.hash('p3', COST).catch((err: unknown) => {
        settled.push('refused');
        return err;
      });
      const err = await refused;
      expect(err).toBeInstanceOf(BcryptPoolBusyError);
      expect((err as BcryptPoolBusyError).status).toBe(503);
      expect(Number((err as BcryptPoolBusyError).headers['Retry-After'])).toBeGreaterThanOrEqual(1);
      await Promise.all(queued);
      expect(settled).toEqual(['refused', 'hash 0', 'hash 1', 'hash 2']);
      expect(await pool.compare('p4', await pool.hash('p4', COST))).toBe(true);
    }));

  it('withdraws the waiting job of a place given back (its caller left), failing it as refused; a running one runs to its end', () =>
    withPool({ size: 1, queue: 2 }, async (pool) => {
      const running = pool.reserve();
      const waiting = pool.reserve();
      const first = running.hash('a', COST);
      const second = waiting.hash('b', COST);
      running.release();
      waiting.release();
      await expect(second).rejects.toBeInstanceOf(BcryptPoolBusyError);
      expect(await first).toMatch(/^\$2b\$04\$/);
      // Both places are free again: two jobs (one running, one waiting) and a third fit.
      await Promise.all([pool.hash('c', COST), pool.hash('d', COST), pool.hash('e', COST)]);
    }));

  it('counts a reserved place until it is used or released; a job through a place given back is admitted as a new one', () =>
    withPool({ size: 1, queue: 0 }, async (pool) => {
      const place = pool.reserve();
      expect(() => pool.reserve()).toThrow(BcryptPoolBusyError);
      await expect(pool.hash('x', COST)).rejects.toBeInstanceOf(BcryptPoolBusyError);
      place.release();
      const next = pool.reserve();
      const hash = await next.hash('x', COST);
      next.release();
      expect(await next.compare('x', hash)).toBe(true);
      const held = pool.reserve();
      await expect(place.compare('x', hash)).rejects.toBeInstanceOf(BcryptPoolBusyError);
      expect(await held.compare('x', hash)).toBe(true);
    }));
});
