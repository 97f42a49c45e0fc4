import type { Knex } from 'knex';

/**
 * Every change to a client, or to the organization it names, is announced on the channel each
 * identity process LISTENs on (src/clients/client-cache.ts), from the database itself: a change
 * made by hand in SQL invalidates the cached copies as promptly as one made through the CLI.
 * NOTIFY is delivered at commit, never before, and not at all on rollback.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION hush_notify_client_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'clients' THEN
        PERFORM pg_notify('hush_identity_clients', COALESCE(NEW.client_id, OLD.client_id));
      ELSE
        PERFORM pg_notify('hush_identity_clients', '*');
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER clients_notify AFTER INSERT OR UPDATE OR DELETE ON clients
      FOR EACH ROW EXECUTE FUNCTION hush_notify_client_change();
    CREATE TRIGGER organizations_notify AFTER UPDATE OR DELETE ON organizations
      FOR EACH ROW EXECUTE FUNCTION hush_notify_client_change();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER organizations_notify ON organizations;
    DROP TRIGGER clients_notify ON clients;
    DROP FUNCTION hush_notify_client_change();
  `);
}
