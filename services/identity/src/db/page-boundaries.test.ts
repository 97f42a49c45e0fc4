import { PageBoundaries, pageOf } from './page-boundaries.js';

/** A sorted list of numbers; a query answers as SQL would, by key (rows after it) or by offset. */
function table(rows: number[]) {
  const calls: { after: number | undefined; offset: number }[] = [];
  const query = (after: number | undefined, offset: number, limit: number | undefined) => {
    calls.push({ after, offset });
    const sorted = [...rows].sort((a, b) => a - b).filter((r) => after === undefined || r > after);
    return Promise.resolve(sorted.slice(offset, limit === undefined ? undefined : offset + limit));
  };
  return { rows, calls, query };
}
const key = (r: number) => r;

test('the first page is read by offset; the page after it by the key the first ended on', async () => {
  const t = table([10, 20, 30, 40, 50]);
  const b = new PageBoundaries<number>();
  expect(await pageOf(b, 'all', { first: 0, max: 2 }, key, t.query)).toEqual([10, 20]);
  expect(await pageOf(b, 'all', { first: 2, max: 2 }, key, t.query)).toEqual([30, 40]);
  expect(t.calls[1]).toEqual({ after: 20, offset: 0 });
});

test('a page nobody ended at, or of another list, is read by offset', async () => {
  const t = table([10, 20, 30, 40, 50]);
  const b = new PageBoundaries<number>();
  await pageOf(b, 'all', { first: 0, max: 2 }, key, t.query);
  expect(await pageOf(b, 'all', { first: 3, max: 2 }, key, t.query)).toEqual([40, 50]);
  expect(await pageOf(b, 'other filters', { first: 2, max: 2 }, key, t.query)).toEqual([30, 40]);
  expect(t.calls.slice(1)).toEqual([
    { after: undefined, offset: 3 },
    { after: undefined, offset: 2 },
  ]);
});

test('paging on while rows are added before the position sees every row of the list once', async () => {
  const t = table([10, 20, 30, 40, 50, 60]);
  const b = new PageBoundaries<number>();
  const seen = [...(await pageOf(b, 'all', { first: 0, max: 2 }, key, t.query))];
  t.rows.push(1, 2, 3); // sort before everything already shown
  seen.push(...(await pageOf(b, 'all', { first: 2, max: 2 }, key, t.query)));
  seen.push(...(await pageOf(b, 'all', { first: 4, max: 2 }, key, t.query)));
  expect(seen).toEqual([10, 20, 30, 40, 50, 60]);
});

test('a remembered position ages out, and the oldest go first past the capacity', async () => {
  const b = new PageBoundaries<number>(2, 60_000);
  b.ended('a', 0, 2, 20);
  b.ended('b', 0, 2, 21);
  b.ended('c', 0, 2, 22);
  expect(b.after('a', 2)).toBeUndefined();
  expect(b.after('b', 2)).toBe(21);
  expect(b.after('c', 2)).toBe(22);
  const expired = new PageBoundaries<number>(10, -1);
  expired.ended('a', 0, 2, 20);
  expect(expired.after('a', 2)).toBeUndefined();
});

test('with max negative (all rows) nothing is remembered; an empty page remembers nothing', async () => {
  const t = table([10, 20]);
  const b = new PageBoundaries<number>();
  expect(await pageOf(b, 'all', { first: 0, max: -1 }, key, t.query)).toEqual([10, 20]);
  expect(b.after('all', 2)).toBeUndefined();
  expect(await pageOf(b, 'all', { first: 5, max: 2 }, key, t.query)).toEqual([]);
  expect(b.after('all', 5)).toBeUndefined();
});
