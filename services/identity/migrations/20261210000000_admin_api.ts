import type { Knex } from 'knex';

/**
 * What Keycloak's admin REST API needs beyond what the CLI kept:
 * - clients get Keycloak's internal `id` (a UUID, the id in admin paths, while `client_id` stays the
 *   OAuth id), `enabled`, `description`, and a copy of the secret sealed with AES-256-GCM under a
 *   key derived from MASTER_KEY (bound to the client's `id`), so tools can read it back; the
 *   SHA-256 hash stays what authenticates;
 * - users get `enabled`, `email_verified`, first and last names, and `service_account_client_id`
 *   for a client's service-account user (the holder of the client's roles);
 * - organizations get Keycloak 26's alias, description, enabled and domains;
 * - roles: realm roles (container `realm`) and the `realm-management` client's roles, seeded here,
 *   and their mappings to users.
 */
const REALM_MANAGEMENT_ROLES = [
  'realm-admin',
  'manage-clients',
  'view-clients',
  'query-clients',
  'manage-users',
  'view-users',
  'query-users',
  'query-groups',
  'manage-realm',
  'view-realm',
  'manage-events',
  'view-events',
] as const;

const ADMIN_API = 'urn:hush:realm-management';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE clients
      ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
      ADD COLUMN enabled boolean NOT NULL DEFAULT true,
      ADD COLUMN description text,
      ADD COLUMN secret_sealed bytea;
    ALTER TABLE users
      ADD COLUMN enabled boolean NOT NULL DEFAULT true,
      ADD COLUMN email_verified boolean NOT NULL DEFAULT false,
      ADD COLUMN first_name text,
      ADD COLUMN last_name text,
      ADD COLUMN service_account_client_id text UNIQUE REFERENCES clients (client_id) ON DELETE CASCADE ON UPDATE CASCADE;
    ALTER TABLE organizations
      ADD COLUMN alias text UNIQUE,
      ADD COLUMN description text,
      ADD COLUMN enabled boolean NOT NULL DEFAULT true,
      ADD COLUMN domains text[] NOT NULL DEFAULT '{}';
    UPDATE organizations SET alias = regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g') || '-' || left(id::text, 8);
    ALTER TABLE organizations ALTER COLUMN alias SET NOT NULL;
    CREATE TABLE roles (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      container text NOT NULL DEFAULT 'realm',
      name text NOT NULL,
      description text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (container, name)
    );
    CREATE TABLE user_roles (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
      PRIMARY KEY (user_id, role_id)
    );
    CREATE INDEX user_roles_role ON user_roles (role_id);
    CREATE INDEX users_organization ON users (organization_id) WHERE organization_id IS NOT NULL;
  `);
  await knex('roles').insert(REALM_MANAGEMENT_ROLES.map((name) => ({ container: 'realm-management', name })));
  await knex('roles').insert([
    { container: 'realm', name: 'offline_access' },
    { container: 'realm', name: 'uma_authorization' },
  ]);
  // The admin API as a resource server: a client given the scope gets access tokens for it, which
  // carry its realm-management roles.
  await knex('apis').insert({ identifier: ADMIN_API, name: 'Admin REST API', scopes: ['realm-management'], access_token_ttl: 300 });
}

export async function down(knex: Knex): Promise<void> {
  await knex('apis').where({ identifier: ADMIN_API }).delete();
  await knex.raw(`
    DROP TABLE user_roles;
    DROP TABLE roles;
    DROP INDEX IF EXISTS users_organization;
    ALTER TABLE organizations DROP COLUMN alias, DROP COLUMN description, DROP COLUMN enabled, DROP COLUMN domains;
    DELETE FROM users WHERE service_account_client_id IS NOT NULL;
    ALTER TABLE users DROP COLUMN enabled, DROP COLUMN email_verified, DROP COLUMN first_name, DROP COLUMN last_name, DROP COLUMN service_account_client_id;
    ALTER TABLE clients DROP COLUMN id, DROP COLUMN enabled, DROP COLUMN description, DROP COLUMN secret_sealed;
  `);
}
