import { batched } from './batch.js';

describe('batched', () => {
  it('runs the calls of one turn together and hands each caller its own result', async () => {
    const calls: number[][] = [];
    const double = batched((xs: number[]) => {
      calls.push(xs);
      return Promise.resolve(xs.map((x) => x * 2));
    });
    const results = await Promise.all([double(1), double(2), double(3)]);
    expect(results).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
    expect(await double(5)).toBe(10);
    expect(calls).toHaveLength(2);
  });

  it('rejects every caller of a failed batch, and the next batch still runs', async () => {
    let fail = true;
    const op = batched((xs: string[]) => (fail ? Promise.reject(new Error('down')) : Promise.resolve(xs)));
    const failed = await Promise.allSettled([op('a'), op('b')]);
    expect(failed.every((r) => r.status === 'rejected')).toBe(true);
    fail = false;
    expect(await op('c')).toBe('c');
  });
});
