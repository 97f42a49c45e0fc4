import { eventually } from '@hush/testing';
import { BcryptPool } from '../src/passphrase/bcrypt-pool.js';

// A cost-4 salt: bcrypt with it takes ~1 ms, so the pool, not bcrypt, is what these tests exercise.
const COST = 4;

describe('the bcrypt pool', () => {
  it('spawns workers only for work, ends them once idle, and spawns them again for new work', async () => {
    const pool = new BcryptPool(2, 200);
    try {
      pool.start();
      expect(pool.workers).toBe(0);
      const first = await Promise.all([pool.hash('a', COST), pool.hash('b', COST), pool.hash('c', COST)]);
      expect(first.every((hash) => /^\$2b\$04\$/.test(hash))).toBe(true);
      expect(pool.workers).toBeGreaterThan(0);
      expect(pool.workers).toBeLessThanOrEqual(2);
      await eventually(async () => (pool.workers === 0 ? true : undefined));
      const again = await pool.hash('a', first[0].slice(0, 29));
      expect(again).toBe(first[0]);
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('with idleMs 0 keeps its workers', async () => {
    const pool = new BcryptPool(1, 0);
    try {
      pool.start();
      await pool.hash('a', COST);
      await new Promise((r) => setTimeout(r, 300));
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });
});
