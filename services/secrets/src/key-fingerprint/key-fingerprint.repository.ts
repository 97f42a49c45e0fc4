import { ConfigError } from '@hush/common';
import type { Db } from '../db/knex.js';

/** A PostgreSQL undefined_table (42P01): the migration that makes `key_fingerprints` has not run. */
const UNDEFINED_TABLE = '42P01';

/** The database has not been migrated yet: `key_fingerprints` is missing (a set-up error, reported as a bad configuration is). */
export class NotMigratedError extends ConfigError {
  override name = 'NotMigratedError';
}

interface Row {
  key_name: string;
  fingerprint: string;
}

/**
 * `key_fingerprints`: one row per root key (by its variable name), the fingerprint of the key the
 * database's data was written with. Made by the migration 20270201000000_key_fingerprints.
 */
export class KeyFingerprintRepository {
  constructor(private readonly db: Db) {}

  /**
   * The fingerprint recorded for `name`; if none is, `fingerprint` is recorded first. Concurrent
   * first starts (replicas) agree: one insert wins, and every caller reads the row it left.
   */
  async claim(name: string, fingerprint: string): Promise<string> {
    try {
      await this.db<Row>('key_fingerprints').insert({ key_name: name, fingerprint }).onConflict('key_name').ignore();
      const row = await this.db<Row>('key_fingerprints').select('fingerprint').where({ key_name: name }).first();
      if (!row) throw new Error(`key_fingerprints has no row for ${name} after inserting it`);
      return row.fingerprint;
    } catch (err) {
      if ((err as { code?: string }).code === UNDEFINED_TABLE)
        throw new NotMigratedError('the database has no key_fingerprints table: run the migrations first (the migrate command)');
      throw err;
    }
  }

  /** Records `fingerprint` as the one of `name` (after a rewrap moved everything under that key). */
  async record(name: string, fingerprint: string): Promise<void> {
    await this.db<Row>('key_fingerprints').insert({ key_name: name, fingerprint }).onConflict('key_name').merge(['fingerprint']);
  }
}
