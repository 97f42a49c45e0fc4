import type { Knex } from 'knex';

/**
 * Nothing here is usable without a key the database never sees:
 * - secret_key, metadata_key and API tokens are stored only as SHA-256 hashes;
 * - a secret's ciphertext is sealed under HKDF(MASTER_KEY, secret_key [, passphrase]);
 * - the metadata's copy of the secret key is sealed under HKDF(MASTER_KEY, metadata_key);
 * - an outbox row (recipient address and link) is sealed under HKDF(MASTER_KEY) and deleted once queued.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    // The account id (Onetime Secret's custid): a username, a client_id, or an admin-chosen name.
    t.text('custid').primary();
    t.text('plan').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('api_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('custid').notNullable().references('accounts.custid').onDelete('CASCADE');
    // SHA-256 of a 256-bit random token: fast to check, useless to a thief.
    t.binary('token_hash').notNullable().unique();
    t.text('label');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX api_tokens_custid ON api_tokens (custid)');

  // The creator's view of a secret; outlives the secret (2 x ttl) to report what happened to it.
  await knex.schema.createTable('metadata', (t) => {
    t.bigIncrements('id', { primaryKey: false }).unique(); // creation order, for paging `recent`
    t.binary('metadata_hash').primary();
    t.text('custid').notNullable();
    // First 6 of the 31 characters of the metadata key, to tell items of `recent` apart (the key
    // itself exists only as a hash; the 25 unknown characters still carry 129 bits).
    t.text('metadata_shortkey').notNullable();
    t.text('state').notNullable().defaultTo('new');
    t.integer('ttl').notNullable();
    t.boolean('passphrase_required').notNullable();
    t.text('recipient_obfuscated');
    // E-mail to the recipient (the outbox row id, then what the mailer reported).
    t.uuid('delivery_id').unique();
    t.text('delivery_status');
    t.timestamp('delivery_updated_at', { useTz: true });
    t.text('delivery_reason');
    // The secret key sealed under the metadata key; cleared on read, burn and expiry.
    t.binary('secret_key_sealed');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('received_at', { useTz: true });
    t.timestamp('burned_at', { useTz: true });
    t.timestamp('secret_expires_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw(`ALTER TABLE metadata ADD CONSTRAINT metadata_state CHECK (state IN ('new','viewed','received','burned'))`);
  await knex.raw(`ALTER TABLE metadata ADD CONSTRAINT metadata_delivery_status CHECK (delivery_status IN ('queued','sent','failed'))`);
  await knex.raw('CREATE INDEX metadata_custid_id ON metadata (custid, id DESC)');
  await knex.raw('CREATE INDEX metadata_expires_at ON metadata (expires_at)');
  await knex.raw('CREATE INDEX metadata_unswept ON metadata (secret_expires_at) WHERE secret_key_sealed IS NOT NULL');

  // The secret itself: one row, deleted by the one statement that reveals it.
  await knex.schema.createTable('secrets', (t) => {
    t.binary('secret_hash').primary();
    t.binary('metadata_hash').notNullable().unique().references('metadata.metadata_hash').onDelete('CASCADE');
    t.binary('ciphertext').notNullable();
    // bcrypt of SHA-256(passphrase) (bcrypt reads only 72 bytes); null when there is none.
    t.text('passphrase_hash');
    t.integer('passphrase_attempts').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX secrets_expires_at ON secrets (expires_at)');

  // Transactional outbox: the e-mail request is written by the same statement as the secret, so a
  // share succeeds without Redis; the relay moves rows into the queue and deletes them. The job
  // (address, link) is sealed under a MASTER_KEY-derived key bound to the row id.
  await knex.schema.createTable('outbox', (t) => {
    t.uuid('id').primary();
    t.binary('metadata_hash').notNullable().references('metadata.metadata_hash').onDelete('CASCADE');
    t.binary('payload_sealed').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // An e-mail for a secret that has expired is pointless: it is dropped then.
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
  await knex.raw('CREATE INDEX outbox_due ON outbox (next_attempt_at)');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['outbox', 'secrets', 'metadata', 'api_tokens', 'accounts']) {
    await knex.schema.dropTableIfExists(table);
  }
}
