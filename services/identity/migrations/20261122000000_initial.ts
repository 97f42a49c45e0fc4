import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organizations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('username').notNullable().unique();
    t.text('email');
    t.text('name');
    t.text('password_hash').notNullable();
    t.uuid('organization_id').references('organizations.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // A resource server: the audience of access tokens and the scopes it understands.
  await knex.schema.createTable('apis', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('identifier').notNullable().unique();
    t.text('name').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.integer('access_token_ttl').notNullable().defaultTo(300);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('clients', (t) => {
    t.text('client_id').primary();
    t.text('name').notNullable();
    // SHA-256 of a 256-bit random secret: fast to check, useless to a thief. Null for public clients.
    t.text('secret_hash');
    t.specificType('grant_types', 'text[]').notNullable();
    t.specificType('response_types', 'text[]').notNullable();
    t.specificType('redirect_uris', 'text[]').notNullable().defaultTo('{}');
    t.specificType('post_logout_redirect_uris', 'text[]').notNullable().defaultTo('{}');
    t.specificType('scopes', 'text[]').notNullable();
    t.uuid('organization_id').references('organizations.id').onDelete('SET NULL');
    // Keycloak's "use refresh tokens for client credentials grant".
    t.boolean('client_credentials_refresh').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('secret_rotated_at', { useTz: true });
  });

  await knex.schema.createTable('signing_keys', (t) => {
    t.text('kid').primary();
    t.text('alg').notNullable();
    // next: published, not signing; active: signing; retiring: published until retire_after.
    t.text('status').notNullable();
    t.jsonb('public_jwk').notNullable();
    // AES-256-GCM under a key derived from MASTER_KEY, bound to the kid.
    t.binary('private_jwk_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('activated_at', { useTz: true });
    t.timestamp('retire_after', { useTz: true });
  });
  await knex.raw(`ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_status CHECK (status IN ('next','active','retiring'))`);
  await knex.raw(`CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (status) WHERE status = 'active'`);

  // oidc-provider's artifacts (sessions, grants, codes, refresh tokens, ...), one table for all models.
  await knex.schema.createTable('oidc_models', (t) => {
    t.text('model').notNullable();
    t.text('id').notNullable();
    t.jsonb('payload').notNullable();
    t.text('grant_id');
    t.text('uid');
    t.text('user_code');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('consumed_at', { useTz: true });
    t.primary(['model', 'id']);
  });
  await knex.raw('CREATE INDEX oidc_models_grant_id ON oidc_models (grant_id) WHERE grant_id IS NOT NULL');
  await knex.raw('CREATE INDEX oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL');
  await knex.raw('CREATE INDEX oidc_models_user_code ON oidc_models (model, user_code) WHERE user_code IS NOT NULL');
  await knex.raw('CREATE INDEX oidc_models_expires_at ON oidc_models (expires_at) WHERE expires_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['oidc_models', 'signing_keys', 'clients', 'apis', 'users', 'organizations']) {
    await knex.schema.dropTableIfExists(table);
  }
}
