// Fills the secrets service's database (already migrated) with set-based SQL, never the API:
// accounts with API tokens, live secrets with their metadata, receipts of secrets read, burned or
// expired long ago, secret requests, e-mails in flight, web sessions. Rows look like the service's:
// keys hashed as the service hashes them (the hour they name, then SHA-256), sealed blobs of the
// real sizes, bcrypt-shaped passphrase hashes, the account of each share drawn from a skewed
// distribution (a few accounts share most), times spread over the TTLs and the receipt retention.
// `tag` keeps the keys of successive calls apart, so one database grows tier by tier.
import { bcryptLike, bulkSession, bytes, keyHash, run, withoutIndexes } from './sql.mjs';

/** The account of a row: one of `accounts`, the first ones far more often (r^3). */
const accountOf = (r) => `'acct-' || lpad(floor({accounts} * ${r} * ${r} * ${r})::int::text, 7, '0')`;

const CHUNK = 200_000;

/** Shares `from`+1 .. `to` of kind `kind` (live, receipt, expired) in chunks, metadata then secrets. */
async function shares(client, kind, from, to, values, log) {
  for (let lo = from; lo < to; lo += CHUNK) {
    const hi = Math.min(to, lo + CHUNK);
    const v = { ...values, lo, hi, kind };
    await run(client, `DROP TABLE IF EXISTS seed_chunk`, v);
    // live: secret still readable, expiring at least 2 h from now; expired: past its TTL by up to
    // an hour and not swept yet; receipt: its secret read, burned or expired up to 20 days ago.
    const created = {
      live: `now() - make_interval(secs => r4 * (ttl - 7200))`,
      expired: `now() - make_interval(secs => ttl + r4 * 3600)`,
      receipt: `now() - make_interval(secs => ttl + r4 * 20 * 86400)`,
    }[kind];
    // One row per share: its times and traits, decided once, used by both tables.
    await run(
      client,
      `CREATE TEMP TABLE seed_chunk AS
       SELECT *, ${created} AS created_at FROM (
         SELECT i, {tag} || ':' || {kind} || ':' || i AS k,
                ${accountOf('r1')} AS custid,
                (ARRAY[86400, 604800, 604800, 604800, 2592000])[1 + floor(r2 * 5)::int] AS ttl,
                r3, r4, r5
         FROM (SELECT i, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5
               FROM generate_series({lo} + 1, {hi}) AS i) g) x`,
      v,
    );
    await run(
      client,
      `INSERT INTO metadata (metadata_hash, metadata_shortkey, custid, state, ttl, passphrase_required, recipient_obfuscated,
                             delivery_id, delivery_status, delivery_updated_at, secret_key_sealed, metadata_key_sealed,
                             anonymous, notify_on, notify_sealed, created_at, updated_at, received_at, burned_at,
                             secret_expires_at, expires_at)
       SELECT ${keyHash('created_at', "k || ':m'")},
              substr(encode(sha256(convert_to(k || ':short', 'UTF8')), 'hex'), 1, 6),
              custid,
              CASE WHEN {kind} <> 'receipt' THEN (CASE WHEN r5 < 0.1 THEN 'viewed' ELSE 'new' END)
                   WHEN r5 < 0.7 THEN 'received' WHEN r5 < 0.8 THEN 'burned' ELSE 'new' END,
              ttl, r3 < 0.1,
              CASE WHEN r3 >= 0.9 AND r3 < 0.95 THEN 'r***@e***.com' END,
              CASE WHEN r3 >= 0.9 AND r3 < 0.95 THEN gen_random_uuid() END,
              CASE WHEN r3 >= 0.9 AND r3 < 0.95 THEN 'sent' END,
              CASE WHEN r3 >= 0.9 AND r3 < 0.95 THEN created_at + interval '4 seconds' END,
              CASE WHEN {kind} <> 'receipt' THEN ${bytes('k', 78)} END,
              ${bytes("k || ':mk'", 59)},
              false,
              -- The creator asked to hear of a reveal; a live row may ask for its expiry too (it will
              -- not expire during the run); an expired one does not, so the sweep writes no e-mail
              -- nobody could open.
              CASE WHEN r3 >= 0.95 THEN (CASE WHEN {kind} = 'live' THEN ARRAY['revealed', 'expired'] ELSE ARRAY['revealed'] END) END,
              CASE WHEN r3 >= 0.95 THEN ${bytes("k || ':n'", 96)} END,
              created_at, created_at,
              CASE WHEN {kind} = 'receipt' AND r5 < 0.7 THEN created_at + make_interval(secs => r4 * ttl) END,
              CASE WHEN {kind} = 'receipt' AND r5 >= 0.7 AND r5 < 0.8 THEN created_at + make_interval(secs => r4 * ttl) END,
              created_at + make_interval(secs => ttl),
              created_at + make_interval(secs => ttl + GREATEST(ttl, {retention}))
       FROM seed_chunk`,
      v,
    );
    if (kind !== 'receipt') {
      await run(
        client,
        `INSERT INTO secrets (secret_hash, metadata_hash, ciphertext, passphrase_hash, created_at, expires_at)
         SELECT ${keyHash('created_at', "k || ':s'")}, ${keyHash('created_at', "k || ':m'")},
                ${bytes("k || ':c'", 93)} || CASE WHEN r5 < 0.2 THEN ${bytes("k || ':c2'", 400)} ELSE '' END,
                CASE WHEN r3 < 0.1 THEN ${bcryptLike("k || ':p'")} END,
                created_at, created_at + make_interval(secs => ttl)
         FROM seed_chunk`,
        v,
      );
    }
    log?.(`secrets: ${kind} ${hi - from}/${to - from}`);
  }
}

/**
 * Adds to the database what a tier of `secrets` live secrets holds beyond the rows already there
 * (`have`, the previous tier's counts; zeros for an empty database): accounts (one per 100
 * secrets, at least 100), API tokens, live secrets, half as many receipts, one request per
 * hundred, e-mails in flight, web sessions. Returns the counts now held.
 */
export async function seedSecrets(client, { secrets, have, tag, retention = 30 * 86400, log }) {
  const target = { secrets, receipts: Math.floor(secrets / 2), requests: Math.floor(secrets / 100), accounts: Math.max(100, Math.floor(secrets / 100)) };
  const v = { tag, retention, accounts: target.accounts };
  await bulkSession(client);
  await run(
    client,
    `INSERT INTO accounts (custid, plan, created_at, updated_at)
     SELECT 'acct-' || lpad(i::text, 7, '0'), (ARRAY['basic','basic','basic','pro'])[1 + i % 4], now() - make_interval(days => i % 700), now()
     FROM generate_series({lo}, {hi} - 1) AS i ON CONFLICT DO NOTHING;
     INSERT INTO api_tokens (custid, token_hash, label, created_at, revoked_at, last_used_at)
     SELECT 'acct-' || lpad(i::text, 7, '0'), sha256(convert_to({tag} || ':t:' || i || ':' || j, 'UTF8')), 'token ' || j,
            now() - make_interval(days => i % 300), CASE WHEN j = 2 THEN now() - interval '3 days' END, now() - make_interval(mins => i % 5000)
     FROM generate_series({lo}, {hi} - 1) AS i, generate_series(1, 2) AS j WHERE j = 1 OR i % 10 = 0`,
    { ...v, lo: have.accounts, hi: target.accounts },
  );
  const load = async () => {
    await shares(client, 'live', have.secrets, target.secrets, v, log);
    await shares(client, 'receipt', have.receipts, target.receipts, v, log);
  };
  // A load larger than what the tables hold goes in without their indexes, built again after.
  if (target.secrets - have.secrets >= Math.max(500_000, have.secrets)) await withoutIndexes(client, ['metadata', 'secrets'], load, log);
  else await load();
  await run(
    client,
    `INSERT INTO secret_requests (id, request_hash, custid, label, passphrase_policy, secret_ttl, request_key_sealed, recipient_obfuscated, state, created_at, expires_at, fulfilled_at, cancelled_at)
     SELECT gen_random_uuid(), ${keyHash('now() - make_interval(secs => r3 * 6 * 86400)', "{tag} || ':rq:' || i")}, ${accountOf('r1')}, 'Request ' || i, 'none', 86400,
            ${bytes("{tag} || ':rk:' || i", 59)}, CASE WHEN r2 < 0.3 THEN 'p***@e***.com' END,
            CASE WHEN r2 < 0.5 THEN 'open' WHEN r2 < 0.9 THEN 'fulfilled' ELSE 'cancelled' END,
            now() - make_interval(secs => r3 * 6 * 86400), now() - make_interval(secs => r3 * 6 * 86400) + interval '7 days',
            CASE WHEN r2 >= 0.5 AND r2 < 0.9 THEN now() - make_interval(secs => r3 * 5 * 86400) END,
            CASE WHEN r2 >= 0.9 THEN now() - make_interval(secs => r3 * 5 * 86400) END
     FROM (SELECT i, random() AS r1, random() AS r2, random() AS r3 FROM generate_series({lo} + 1, {hi}) AS i) g`,
    { ...v, lo: have.requests, hi: target.requests },
  );
  // E-mails handed to the mailer and waiting for its report (the relay looks again in a day).
  await run(
    client,
    `INSERT INTO outbox (id, metadata_hash, payload_sealed, attempts, created_at, next_attempt_at, expires_at, queued_at)
     SELECT m.delivery_id, m.metadata_hash, ${bytes("encode(m.metadata_hash, 'hex')", 180)}, 1, now(), now() + interval '1 day', m.secret_expires_at, now()
     FROM metadata m WHERE m.delivery_id IS NOT NULL AND m.secret_key_sealed IS NOT NULL AND m.secret_expires_at > now() + interval '2 hours'
       AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.id = m.delivery_id)
     LIMIT GREATEST(0, {n} - (SELECT count(*) FROM outbox))`,
    { n: Math.min(2000, Math.ceil(target.secrets / 1000)) },
  );
  await run(
    client,
    `INSERT INTO web_sessions (id_hash, custid, tokens_sealed, access_expires_at, created_at, last_seen_at, idle_expires_at, expires_at)
     SELECT sha256(convert_to({tag} || ':ws:' || i, 'UTF8')), 'acct-' || lpad((i * 7 % {accounts})::text, 7, '0'), ${bytes("{tag} || ':wt:' || i", 900)},
            now() + interval '4 minutes', now() - interval '1 hour', now() - interval '1 minute', now() + interval '29 minutes', now() + interval '11 hours'
     FROM generate_series({lo} + 1, {hi}) AS i`,
    { ...v, lo: Math.floor(have.accounts / 10), hi: Math.floor(target.accounts / 10) },
  );
  return target;
}

/** `n` secrets past their TTL, not swept yet: what the sweeper finds after an outage, or a burst of short TTLs. */
export async function seedExpired(client, { n, accounts, tag, retention = 30 * 86400, log }) {
  await bulkSession(client);
  await shares(client, 'expired', 0, n, { tag, retention, accounts }, log);
}

/** When the listed account's `i`th secret was made (one a second, the last just now). */
const ACCOUNT_CREATED = `now() - make_interval(secs => ({n} - i))`;

/**
 * An account with `n` live secrets, all its own, newest last (the listing pages through them).
 * Their metadata keys are not sealed for the owner (the service shows such rows with
 * `metadata_key: null`, as rows written before owner keys existed): both listed accounts are
 * seeded alike, so a page costs the same work apart from finding its rows.
 */
export async function seedAccount(client, { custid, n, tag }) {
  await run(
    client,
    `INSERT INTO accounts (custid, plan) VALUES ({custid}, 'basic') ON CONFLICT DO NOTHING;
     INSERT INTO metadata (metadata_hash, metadata_shortkey, custid, state, ttl, passphrase_required, secret_key_sealed, created_at, updated_at, secret_expires_at, expires_at)
     SELECT ${keyHash(ACCOUNT_CREATED, "{tag} || ':a:' || i")}, substr(encode(sha256(convert_to({tag} || ':as:' || i, 'UTF8')), 'hex'), 1, 6), {custid}, 'new', 604800, false,
            ${bytes("{tag} || ':ak:' || i", 78)}, ${ACCOUNT_CREATED}, now(), now() + interval '6 days', now() + interval '36 days'
     FROM generate_series(1, {n}) AS i ORDER BY i;
     INSERT INTO secrets (secret_hash, metadata_hash, ciphertext, expires_at)
     SELECT ${keyHash(ACCOUNT_CREATED, "{tag} || ':as2:' || i")}, ${keyHash(ACCOUNT_CREATED, "{tag} || ':a:' || i")}, ${bytes("{tag} || ':ac:' || i", 93)}, now() + interval '6 days'
     FROM generate_series(1, {n}) AS i`,
    { custid, n, tag },
  );
}

/** What autovacuum would have done by the time a real database grew this large: visibility map and statistics. */
export async function settle(client) {
  await client.query(`VACUUM (ANALYZE) accounts, api_tokens, metadata, secrets, secret_requests, outbox, web_sessions`);
}
