import { createDb } from './db.js';

// Against the real PostgreSQL the other tests use; only queries constants, creates nothing.
const url = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('createDb', () => {
  it('with int8AsNumber, returns bigint columns as numbers on that pool only', async () => {
    const numbers = createDb(url, 1, { int8AsNumber: true });
    const strings = createDb(url, 1);
    try {
      const query = 'SELECT 9007199254740::int8 AS n, 5::int4 AS i';
      expect((await numbers.raw(query)).rows[0]).toEqual({ n: 9007199254740, i: 5 });
      expect((await strings.raw(query)).rows[0]).toEqual({ n: '9007199254740', i: 5 });
    } finally {
      await Promise.all([numbers.destroy(), strings.destroy()]);
    }
  });
});
