import { batchedPerItem } from './batch.js';

describe('batchedPerItem', () => {
  it('runs the calls of one event-loop turn as one batch and gives each caller its own result', async () => {
    const batches: number[][] = [];
    const double = batchedPerItem((items: number[]) => {
      batches.push(items);
      return Promise.resolve(items.map((n) => n * 2));
    });
    await expect(Promise.all([1, 2, 3].map(double))).resolves.toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('when the batch fails, retries each item alone: only the bad item fails', async () => {
    const batches: number[][] = [];
    const load = batchedPerItem((items: number[]) => {
      batches.push(items);
      if (items.includes(13)) return Promise.reject(new Error('constraint violated'));
      return Promise.resolve(items.map((n) => n + 1));
    });
    const settled = await Promise.allSettled([1, 13, 3].map(load));
    expect(settled).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: new Error('constraint violated') },
      { status: 'fulfilled', value: 4 },
    ]);
    expect(batches).toEqual([[1, 13, 3], [1], [13], [3]]);
  });

  it('a batch that returns the wrong number of results fails rather than misassigning them', async () => {
    const load = batchedPerItem((items: number[]) => Promise.resolve(items.slice(1)));
    const settled = await Promise.allSettled([1, 2].map(load));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });
});
