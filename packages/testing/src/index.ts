import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where tests create their throw-away databases; CI and the dev machines use trust auth. */
export const adminDatabaseUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** Creates an empty, uniquely named database; `drop()` removes it (forcing out stray connections). */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminDatabaseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A unique prefix for Redis keys, so parallel test files never see each other's counters. */
export function uniquePrefix(label: string): string {
  return `${label}:${randomBytes(6).toString('hex')}:`;
}
