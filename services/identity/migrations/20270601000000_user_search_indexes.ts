import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from '@hush/common';

/**
 * - One trigram index over the four columns a user search looks in (username, e-mail, first and
 *   last name, lowered and joined by a space): a search for a part of one of them is one index
 *   scan instead of four OR-ed (docs/performance.md, "A search for one user's name"). The
 *   repository keeps the four conditions as the exact test; the index only proposes candidates,
 *   so the separator matters for nothing but which candidates it yields.
 * - The lowered username as a B-tree: `username=...&exact=true`, the lookup provisioning tools
 *   make before creating a user, is one descent instead of a trigram index's posting lists.
 * Built CONCURRENTLY, outside a transaction: the table keeps taking writes.
 */
export const config = { transaction: false };

const INDEXES = {
  users_search_trgm: `users USING gin (lower(coalesce(username, '') || ' ' || coalesce(email, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '')) gin_trgm_ops)`,
  users_lower_username: 'users (lower(username))',
};

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of Object.entries(INDEXES)) await createIndexConcurrently(knex, name, definition);
  await knex.raw('ANALYZE users');
}

export async function down(knex: Knex): Promise<void> {
  for (const name of Object.keys(INDEXES)) await dropIndexConcurrently(knex, name);
}
