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

  it('with maxInFlight, holds later calls while a batch is out and sends them together when it returns', async () => {
    const calls: number[][] = [];
    const pending: (() => void)[] = [];
    const op = batched(
      (xs: number[]) => {
        calls.push(xs);
        return new Promise<number[]>((resolve) => pending.push(() => resolve(xs)));
      },
      { maxInFlight: 1 },
    );
    const first = op(1);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1]]);
    // Three turns while the first batch is out: nothing is sent.
    const later = [op(2)];
    await new Promise((r) => setImmediate(r));
    later.push(op(3), op(4));
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1]]);
    pending.shift()!();
    expect(await first).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1], [2, 3, 4]]);
    pending.shift()!();
    expect(await Promise.all(later)).toEqual([2, 3, 4]);
  });

  it('with maxInFlight, a failed batch frees its place for the next', async () => {
    let fail = true;
    const op = batched((xs: string[]) => (fail ? Promise.reject(new Error('down')) : Promise.resolve(xs)), { maxInFlight: 1 });
    await expect(op('a')).rejects.toThrow('down');
    fail = false;
    expect(await Promise.all([op('b'), op('c')])).toEqual(['b', 'c']);
  });
});
