import { applyMigrations, rollbackMigrations, type Db } from '@hush/common';
import { migrationSource } from './migrations.js';

export { createDb, type Db } from '@hush/common';

export const migrateLatest = (db: Db): Promise<string[]> => applyMigrations(db, migrationSource);
export const migrateDown = (db: Db): Promise<void> => rollbackMigrations(db, migrationSource);
