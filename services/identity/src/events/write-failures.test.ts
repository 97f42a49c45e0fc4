import { failureOf, isRefusedData, OnceEvery } from './write-failures.js';

describe('write failures of the event recorder', () => {
  it('tells a refused row (data, constraint, size) from a database that is away', () => {
    for (const code of ['22P05', '22021', '22P02', '23514', '23502', '54000']) expect(isRefusedData({ code })).toBe(true);
    for (const err of [{ code: 'ECONNREFUSED' }, { code: '57P01' }, { code: '08006' }, { code: '57014' }, new Error('Query read timeout'), null, undefined]) {
      expect(isRefusedData(err)).toBe(false);
    }
  });

  it('says of a failure its SQLSTATE and message, never the detail quoting the refused row', () => {
    const err = Object.assign(new Error('new row for relation "events" violates check constraint "c"'), { code: '23514', detail: 'Failing row contains (ann@example.com)' });
    expect(failureOf(err)).toEqual({ code: '23514', message: 'new row for relation "events" violates check constraint "c"' });
    expect(JSON.stringify(failureOf(err))).not.toContain('ann@example.com');
  });

  it('lets one line per kind through per interval, then says how many it left out', () => {
    let now = 0;
    const once = new OnceEvery(1000, () => now);
    expect(once.due('a')).toBe(0);
    expect(once.due('a')).toBeUndefined();
    expect(once.due('b')).toBe(0);
    now = 999;
    expect(once.due('a')).toBeUndefined();
    now = 1000;
    expect(once.due('a')).toBe(2);
    expect(once.due('a')).toBeUndefined();
  });
});
