// What the secrets benchmarks (secrets-api.mjs, memory.mjs, gc-promotion.mjs) share: where
// PostgreSQL and Redis are, throw-away databases, the services' Node flags, waiting for /healthz.
import pg from 'pg';
import { startFlags } from '../scripts/start-flags.mjs';

export const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Runs one statement as the PostgreSQL admin (CREATE / DROP DATABASE). */
export async function admin(sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the admin's server. */
export function databaseUrl(name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A service's Node flags: its start script's in checkout `root`, or `override` (`--node-flags`) when given. */
export function nodeFlags(root, service, override) {
  return override === undefined ? startFlags(root, service) : override.split(/\s+/).filter(Boolean);
}

/**
 * A port for a service under test, drawn from 20000-32199: below Linux's ephemeral range
 * (32768-60999), where every outgoing connection (the load generators', the pools') takes a port
 * and a long benchmark sooner or later finds its drawn port taken. Never the same twice in a run.
 */
const drawn = new Set();
export function randomPort() {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12200);
    if (drawn.has(port)) continue;
    drawn.add(port);
    return port;
  }
}

/**
 * Resolves once `origin`/healthz answers; throws after `attempts` tries 100 ms apart. On a public
 * port the answer is 404 (health lives on the management port), but a service opens its public
 * port only once started, so any answer will do.
 */
export async function healthy(origin, attempts = 100) {
  for (let i = 0; i < attempts; i++) {
    try {
      const res = await fetch(`${origin}/healthz`);
      if (res.ok || res.status === 404) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${origin} never became healthy`);
}
