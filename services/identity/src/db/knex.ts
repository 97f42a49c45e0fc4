import { applyMigrations, type Db } from '@hush/common';
import { migrationSource } from './migrations.js';

export { createDb, type Db } from '@hush/common';

export const migrateLatest = (db: Db): Promise<string[]> => applyMigrations(db, migrationSource);
