import { inBoundedBatches } from './bounded-batches.js';

/** A backlog of `rows` rows that a batch takes from, at most `size` at a time, recording each batch's size. */
function backlog(rows: number) {
  const batches: number[] = [];
  let left = rows;
  const batch = (size: number) => {
    const taken = Math.min(size, left);
    left -= taken;
    batches.push(taken);
    return Promise.resolve(taken);
  };
  return { batch, batches, left: () => left };
}

test('a backlog is worked off in batches of at most the given size, until a batch comes back short', async () => {
  const b = backlog(2_500);
  expect(await inBoundedBatches(b.batch, 1_000)).toBe(2_500);
  expect(b.batches).toEqual([1_000, 1_000, 500]);
  expect(b.left()).toBe(0);
});

test('a backlog of an exact multiple of the size ends with one empty batch', async () => {
  const b = backlog(2_000);
  expect(await inBoundedBatches(b.batch, 1_000)).toBe(2_000);
  expect(b.batches).toEqual([1_000, 1_000, 0]);
});

test('nothing to do: one batch, which finds nothing', async () => {
  const b = backlog(0);
  expect(await inBoundedBatches(b.batch, 1_000)).toBe(0);
  expect(b.batches).toEqual([0]);
});

test('once aborted, no further batch starts; the rows already handled are counted', async () => {
  const b = backlog(10_000);
  const stop = new AbortController();
  const batch = async (size: number) => {
    const n = await b.batch(size);
    if (b.batches.length === 2) stop.abort();
    return n;
  };
  expect(await inBoundedBatches(batch, 1_000, stop.signal)).toBe(2_000);
  expect(b.batches).toEqual([1_000, 1_000]);
});

test('a failing batch fails the run; the batches before it stay done', async () => {
  let calls = 0;
  const batch = (size: number) => (++calls === 2 ? Promise.reject(new Error('statement timeout')) : Promise.resolve(size));
  await expect(inBoundedBatches(batch, 10)).rejects.toThrow('statement timeout');
  expect(calls).toBe(2);
});
