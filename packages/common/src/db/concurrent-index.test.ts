import { randomBytes } from 'node:crypto';
import { createDb, type Db } from './db.js';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index.js';

// A database of its own on the real PostgreSQL, dropped at the end.
const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `hush_test_concurrent_index_${randomBytes(4).toString('hex')}`;
let admin: Db;
let db: Db;
beforeAll(async () => {
  admin = createDb(adminUrl, 1);
  await admin.raw('CREATE DATABASE ??', [name]);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  db = createDb(url.toString(), 2);
  await db.raw('CREATE TABLE items (n int NOT NULL)');
});
afterAll(async () => {
  await db?.destroy();
  await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
  await admin.destroy();
});

const indexes = async () =>
  (
    await db.raw<{ rows: { name: string; valid: boolean }[] }>(`SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid ORDER BY 1`)
  ).rows.filter((r) => r.name.startsWith('items_'));

test('builds the index once; a second call leaves it as it is', async () => {
  await createIndexConcurrently(db, 'items_n', 'items (n)');
  await createIndexConcurrently(db, 'items_n', 'items (n)');
  expect(await indexes()).toEqual([{ name: 'items_n', valid: true }]);
  await dropIndexConcurrently(db, 'items_n');
  await dropIndexConcurrently(db, 'items_n');
  expect(await indexes()).toEqual([]);
});

test('an index a failed build left invalid is dropped and built again', async () => {
  await db('items').insert([{ n: 1 }, { n: 1 }]);
  // A unique build over duplicates fails part-way and leaves the index invalid.
  await expect(db.raw('CREATE UNIQUE INDEX CONCURRENTLY items_unique_n ON items (n)')).rejects.toMatchObject({ code: '23505' });
  expect(await indexes()).toEqual([{ name: 'items_unique_n', valid: false }]);
  await createIndexConcurrently(db, 'items_unique_n', 'items (n)');
  expect(await indexes()).toEqual([{ name: 'items_unique_n', valid: true }]);
});
