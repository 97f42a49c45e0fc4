import { applyMigrations, createDb as createPool, type Db, type DbOptions } from '@hush/common';
import { migrationSource } from './migrations.js';

export type { Db } from '@hush/common';

/** How every pool of this service talks to its database: bigint (int8) ids come back as numbers; ours stay far below 2^53. */
export const dbOptions: DbOptions = { int8AsNumber: true };

export const createDb = (url: string, poolMax?: number): Db => createPool(url, poolMax, dbOptions);

export const migrateLatest = (db: Db): Promise<string[]> => applyMigrations(db, migrationSource);
