import type { Knex } from 'knex';

/**
 * Zero-knowledge secrets (docs/zero-knowledge.md): the browser or another client encrypts, the
 * key stays in the link's fragment, and this service stores what it cannot open.
 * - `secrets.key_verifier`: SHA-256 of the key proof the client derives from the link's key; a
 *   read must present the proof (non-null: the secret is zero-knowledge, and no other read path
 *   may claim it). `secrets.passphrase_verifier`: the same for the passphrase proof (key and
 *   passphrase through a slow KDF on the client); wrong ones are counted in
 *   `passphrase_attempts`. `secrets.wrapped_key`: the key of an answer to a zero-knowledge
 *   request, wrapped for the requester's public key.
 * - `metadata.zero_knowledge`, `metadata.file_bytes`: what the receipt says of it (the mode,
 *   and the size of an attached file as stored, encrypted).
 * - `zk_files`, `zk_file_records`: a file's encrypted records, uploaded before the share that
 *   attaches it (`secret_hash`, deleted with the secret on burn, expiry or destruction), handed
 *   to the reader after the one-time read under a download token (`download_hash`, its SHA-256)
 *   and deleted once downloaded or expired. Records are incompressible: stored out of line, uncompressed.
 * - `secret_requests.public_key`: a zero-knowledge request's public key (ECDH P-256); its answer
 *   is encrypted by the sender's client and its key wrapped for that public key.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE secrets ADD COLUMN key_verifier bytea, ADD COLUMN passphrase_verifier bytea, ADD COLUMN wrapped_key bytea;
    ALTER TABLE metadata ADD COLUMN zero_knowledge boolean NOT NULL DEFAULT false, ADD COLUMN file_bytes bigint;
    ALTER TABLE secret_requests ADD COLUMN public_key bytea;
    CREATE TABLE zk_files (
      id uuid PRIMARY KEY,
      custid text NOT NULL,
      bytes bigint NOT NULL DEFAULT 0,
      complete boolean NOT NULL DEFAULT false,
      secret_hash bytea UNIQUE REFERENCES secrets(secret_hash) ON DELETE CASCADE,
      download_hash bytea UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE INDEX zk_files_expires_at ON zk_files (expires_at);
    CREATE INDEX zk_files_pending ON zk_files (custid) WHERE secret_hash IS NULL AND download_hash IS NULL;
    CREATE TABLE zk_file_records (
      file_id uuid NOT NULL REFERENCES zk_files(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      data bytea NOT NULL,
      PRIMARY KEY (file_id, seq)
    );
    ALTER TABLE zk_file_records ALTER COLUMN data SET STORAGE EXTERNAL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE zk_file_records;
    DROP TABLE zk_files;
    ALTER TABLE secret_requests DROP COLUMN public_key;
    ALTER TABLE metadata DROP COLUMN file_bytes, DROP COLUMN zero_knowledge;
    DELETE FROM secrets WHERE key_verifier IS NOT NULL;
    ALTER TABLE secrets DROP COLUMN wrapped_key, DROP COLUMN passphrase_verifier, DROP COLUMN key_verifier;
  `);
}
