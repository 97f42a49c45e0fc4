// Fills identity's database (bootstrapped) with set-based SQL, never the API: organizations,
// users (names, addresses, bcrypt-shaped password hashes, some with a second factor, some in an
// organization), clients (service accounts for those with client credentials), realm roles and
// their mappings, user and admin events in time order over the last 29 days (inside the default
// 30-day retention), and oidc-provider's artifacts as the protocol leaves them (sessions, grants,
// refresh tokens, a few expired ones waiting for the sweep). Rows look like the service's: ids
// hashed as the adapter hashes them, payloads of the real shapes, users and clients drawn from
// skewed distributions (a few are far busier than the rest). `tag` keeps the keys of successive
// calls apart, so one database grows tier by tier.
import { bcryptLike, bulkSession, bytes, run, withoutIndexes } from './sql.mjs';

const FIRST = [
  'Maria',
  'Jan',
  'Aiko',
  'Omar',
  'Lena',
  'Pedro',
  'Sofia',
  'Ivan',
  'Chen',
  'Amara',
  'Lukas',
  'Noor',
  'Elena',
  'Kofi',
  'Hana',
  'Mateo',
  'Freya',
  'Ravi',
  'Zoe',
  'Tomas',
];
const LAST = [
  'Garcia',
  'Novak',
  'Tanaka',
  'Haddad',
  'Muller',
  'Silva',
  'Rossi',
  'Petrov',
  'Wang',
  'Okafor',
  'Schmidt',
  'Khan',
  'Popescu',
  'Mensah',
  'Sato',
  'Lopez',
  'Berg',
  'Iyer',
  'Martin',
  'Dvorak',
];
const DOMAINS = ['example.com', 'example.org', 'mail.example.net', 'corp.example.com'];
const array = (words) => `ARRAY[${words.map((w) => `'${w}'`).join(',')}]`;
const pick = (words, r) => `(${array(words)})[1 + floor(${r} * ${words.length})::int]`;
/** oidc-provider's ids are base64url; the adapter stores SHA-256 of them, also base64url. */
const b64url = (bytea) => `rtrim(translate(encode(${bytea}, 'base64'), '+/', '-_'), '=')`;
const key = (expr) => b64url(`sha256(convert_to(${expr}, 'UTF8'))`);

/** The numbered users and clients the skewed draws pick from (temporary, this session's). */
async function numberings(client) {
  await client.query(`DROP TABLE IF EXISTS seed_users, seed_clients;
    CREATE TEMP TABLE seed_users AS SELECT substring(username FROM '\\.([0-9]+)$')::int AS n, id, username FROM users WHERE username ~ '^[a-z]+\\.[a-z]+\\.[0-9]+$';
    CREATE UNIQUE INDEX ON seed_users (n);
    CREATE TEMP TABLE seed_clients AS SELECT row_number() OVER (ORDER BY created_at, client_id)::int AS n, client_id, grant_types FROM clients;
    CREATE UNIQUE INDEX ON seed_clients (n);
    ANALYZE seed_users; ANALYZE seed_clients;`);
  const { rows } = await client.query(`SELECT (SELECT count(*) FROM seed_users)::int AS users, (SELECT count(*) FROM seed_clients)::int AS clients`);
  return rows[0];
}

/**
 * Adds what a tier of `users`, `clients` and `events` holds beyond `have` (the previous tier's
 * counts; zeros for a bootstrapped database). Returns the counts now held.
 */
export async function seedIdentity(client, { users, clients, events, have, tag, log }) {
  const target = { users, clients, events, organizations: Math.max(10, Math.floor(users / 1000)) };
  await bulkSession(client);
  const v = { tag };
  await run(
    client,
    `INSERT INTO organizations (name, alias, description, domains, created_at)
     SELECT 'Organization ' || {tag} || ' ' || i, 'org-' || {tag} || '-' || i, 'Seeded', ARRAY['org' || i || '.example.com'], now() - make_interval(days => i % 700)
     FROM generate_series({lo} + 1, {hi}) AS i`,
    { ...v, lo: have.organizations, hi: target.organizations },
  );
  // Users: created over two years, in creation order (as a real table fills).
  await run(
    client,
    `INSERT INTO users (username, email, name, first_name, last_name, password_hash, organization_id, enabled, email_verified, created_at)
     SELECT lower(f) || '.' || lower(l) || '.' || i,
            CASE WHEN r2 < 0.95 THEN lower(f) || '.' || lower(l) || '.' || i || '@' || ${pick(DOMAINS, 'r3')} END,
            f || ' ' || l, f, l, ${bcryptLike("{tag} || ':pw:' || i")},
            CASE WHEN r2 < 0.3 THEN (SELECT id FROM organizations ORDER BY created_at, id OFFSET floor(r4 * {orgs})::int LIMIT 1) END,
            r3 < 0.98, r4 < 0.8, now() - make_interval(secs => ({hi} - i) * (63072000.0 / {hi}))
     FROM (SELECT i, ${pick(FIRST, 'random()')} AS f, ${pick(LAST, 'random()')} AS l, random() AS r2, random() AS r3, random() AS r4
           FROM generate_series({lo} + 1, {hi}) AS i) g ORDER BY i`,
    { ...v, lo: have.users, hi: target.users, orgs: target.organizations },
  );
  log?.(`identity: ${target.users} users`);
  // Clients: 60% machine clients (client credentials, half with refresh tokens) with a service
  // account, 40% web apps (authorization code) with a redirect URI of their own.
  await run(
    client,
    `INSERT INTO clients (client_id, name, secret_hash, secret_sealed, grant_types, response_types, redirect_uris, post_logout_redirect_uris,
                          scopes, client_credentials_refresh, created_at, description)
     SELECT 'client-' || i || '-' || substr(md5(i::text), 1, 6), 'App ' || i, encode(sha256(convert_to({tag} || ':cs:' || i, 'UTF8')), 'hex'), ${bytes("{tag} || ':css:' || i", 71)},
            CASE WHEN r < 0.6 THEN ARRAY['client_credentials', 'refresh_token'] ELSE ARRAY['authorization_code', 'refresh_token'] END,
            CASE WHEN r < 0.6 THEN ARRAY[]::text[] ELSE ARRAY['code'] END,
            CASE WHEN r < 0.6 THEN ARRAY[]::text[] ELSE ARRAY['https://app-' || i || '.example.org/callback'] END,
            CASE WHEN r < 0.6 THEN ARRAY[]::text[] ELSE ARRAY['https://app-' || i || '.example.org/'] END,
            CASE WHEN r < 0.6 THEN ARRAY['bench:read'] ELSE ARRAY['openid', 'profile', 'email'] END,
            r < 0.3, now() - make_interval(days => i % 700), CASE WHEN r < 0.5 THEN 'Seeded client ' || i END
     FROM (SELECT i, random() AS r FROM generate_series({lo} + 1, {hi}) AS i) g`,
    { ...v, lo: have.clients, hi: target.clients },
  );
  await client.query(`INSERT INTO users (username, password_hash, service_account_client_id)
    SELECT 'service-account-' || client_id, '!', client_id FROM clients c
    WHERE 'client_credentials' = ANY(grant_types) AND NOT EXISTS (SELECT 1 FROM users u WHERE u.service_account_client_id = c.client_id)`);
  log?.(`identity: ${target.clients} clients`);
  await client.query(`INSERT INTO roles (container, name, description)
    SELECT 'realm', 'role-' || i, 'Seeded role ' || i FROM generate_series(1, 20) AS i ON CONFLICT DO NOTHING`);
  const counts = await numberings(client);
  // Each new user: one or two realm roles; one in 200 a realm-management role; one in 20 a TOTP
  // credential; one in 100 a used reset link.
  await run(
    client,
    `INSERT INTO user_roles (user_id, role_id)
     SELECT u.id, r.id FROM seed_users u JOIN roles r ON r.container = 'realm' AND r.name IN ('role-' || (1 + u.n % 20), 'role-' || (1 + u.n % 7))
     WHERE u.n > {lo} ON CONFLICT DO NOTHING;
     INSERT INTO user_roles (user_id, role_id)
     SELECT u.id, r.id FROM seed_users u JOIN roles r ON r.container = 'realm-management' AND r.name = 'view-users'
     WHERE u.n > {lo} AND u.n % 200 = 0 ON CONFLICT DO NOTHING;
     INSERT INTO user_credentials (user_id, type, user_label, secret_sealed, last_step)
     SELECT u.id, 'otp', 'Phone', ${bytes("{tag} || ':totp:' || u.n", 48)}, 59000000 FROM seed_users u WHERE u.n > {lo} AND u.n % 20 = 0;
     INSERT INTO action_tokens (id, token_hash, user_id, kind, actions, created_at, expires_at, used_at, delivery_status)
     SELECT gen_random_uuid(), sha256(convert_to({tag} || ':at:' || u.n, 'UTF8')), u.id, 'reset-password', ARRAY['UPDATE_PASSWORD'],
            now() - interval '2 hours', now() - interval '1 hour 45 minutes', now() - interval '1 hour 50 minutes', 'sent'
     FROM seed_users u WHERE u.n > {lo} AND u.n % 100 = 0`,
    { ...v, lo: have.users },
  );
  await artifacts(client, { ...v, lo: have.users, hi: counts.users, clients: counts.clients });
  log?.(`identity: artifacts of ${counts.users} users`);
  const loadEvents = () => userEvents(client, { ...v, from: have.events, to: target.events, users: counts.users, clients: counts.clients }, log);
  // A load larger than the table goes in without its indexes, built again after.
  if (target.events - have.events >= Math.max(500_000, have.events)) await withoutIndexes(client, ['events'], loadEvents, log);
  else await loadEvents();
  await run(
    client,
    `INSERT INTO admin_events (time, operation_type, resource_type, resource_path, auth_client_id, auth_user_id, auth_ip_address, representation)
     SELECT t, (ARRAY['CREATE','UPDATE','UPDATE','DELETE','ACTION'])[1 + floor(r * 5)::int], CASE WHEN r < 0.7 THEN 'USER' ELSE 'CLIENT' END,
            CASE WHEN r < 0.7 THEN 'users/' ELSE 'clients/' END || gen_random_uuid(), 'security-admin-console', NULL, '10.1.0.' || (1 + floor(r * 200)::int),
            '{"enabled":true,"emailVerified":true,"firstName":"Maria","lastName":"Garcia","attributes":{}}'
     FROM (SELECT now() - make_interval(secs => (1 - i::float8 / {hi}) * 29 * 86400) AS t, random() AS r FROM generate_series({lo} + 1, {hi}) AS i) g ORDER BY t`,
    { ...v, lo: Math.floor(have.events / 100), hi: Math.floor(target.events / 100) },
  );
  return target;
}

/**
 * oidc-provider's rows for users `lo`+1 .. `hi`: a live session for three in ten, one or two grants
 * each with its refresh token; and a client-credentials grant with its refresh token for each
 * machine client with refresh tokens. One artifact in twenty has expired and waits for the sweep.
 */
async function artifacts(client, v) {
  const expiry = `CASE WHEN random() < 0.05 THEN now() - make_interval(secs => random() * 60) ELSE now() + make_interval(secs => 3600 + random() * 13 * 86400) END`;
  await run(
    client,
    `DROP TABLE IF EXISTS seed_grants;
     CREATE TEMP TABLE seed_grants AS
     SELECT x.n, x.account_id, x.j, c.client_id, ${key("{tag} || ':grant:' || x.n || ':' || x.j")} AS grant_id, ${key("{tag} || ':sid:' || x.n")} AS sid,
            extract(epoch FROM now())::bigint - (x.n % 86400) AS iat
     FROM (SELECT u.n, u.id AS account_id, g.j, 1 + floor({clients} * power(random(), 2))::int AS cn
           FROM seed_users u CROSS JOIN generate_series(1, 2) AS g(j) WHERE u.n > {lo} AND u.n <= {hi} AND (g.j = 1 OR u.n % 2 = 0)) x
     JOIN seed_clients c ON c.n = x.cn;
     INSERT INTO oidc_models (model, id, payload, grant_id, uid, expires_at)
     SELECT 'Grant', ${key('grant_id')}, jsonb_build_object('exp', iat + 1209600, 'iat', iat, 'kind', 'Grant', 'openid', jsonb_build_object('scope', 'openid profile email'),
              'clientId', client_id, 'accountId', account_id), NULL, NULL, ${expiry}
     FROM seed_grants;
     INSERT INTO oidc_models (model, id, payload, grant_id, uid, expires_at)
     SELECT 'RefreshToken', ${key("{tag} || ':rt:' || n || ':' || j")},
            jsonb_build_object('exp', iat + 1209600, 'gty', 'authorization_code', 'iat', iat, 'sid', sid, 'iiat', iat, 'kind', 'RefreshToken', 'scope', 'openid profile email',
              'grantId', grant_id, 'authTime', iat, 'clientId', client_id, 'accountId', account_id, 'rotations', 0, 'sessionUid', sid, 'expiresWithSession', true),
            grant_id, NULL, ${expiry}
     FROM seed_grants;
     INSERT INTO oidc_models (model, id, payload, grant_id, uid, expires_at)
     SELECT 'Session', ${key("{tag} || ':session:' || n")},
            jsonb_build_object('exp', iat + 1209600, 'iat', iat, 'uid', sid, 'kind', 'Session', 'loginTs', iat, 'accountId', account_id,
              'authorizations', jsonb_build_object(client_id, jsonb_build_object('sid', sid, 'grantId', grant_id))),
            NULL, sid, ${expiry}
     FROM seed_grants WHERE j = 1 AND n % 10 < 3;
     INSERT INTO oidc_models (model, id, payload, grant_id, uid, expires_at)
     SELECT m.model, ${key("':cc:' || m.model || ':' || c.client_id")},
            jsonb_build_object('exp', extract(epoch FROM now())::bigint + 1209600, 'iat', extract(epoch FROM now())::bigint, 'kind', m.model, 'clientId', c.client_id,
              'accountId', u.id, 'grantId', ${key("':ccg:' || c.client_id")}),
            CASE WHEN m.model = 'RefreshToken' THEN ${key("':ccg:' || c.client_id")} END, NULL, now() + interval '14 days'
     FROM clients c JOIN users u ON u.service_account_client_id = c.client_id CROSS JOIN (VALUES ('Grant'), ('RefreshToken')) AS m(model)
     WHERE c.client_credentials_refresh
     ON CONFLICT DO NOTHING`,
    v,
  );
}

const EVENT_DAYS = 29;

/** User events `from`+1 .. `to`, spread over the last 29 days and written day by day in time order, as they accumulate. */
async function userEvents(client, v, log) {
  const total = v.to - v.from;
  if (total <= 0) return;
  const perDay = Math.ceil(total / EVENT_DAYS);
  for (let day = EVENT_DAYS; day >= 1; day--) {
    const n = Math.min(perDay, v.to - v.from - perDay * (EVENT_DAYS - day));
    if (n <= 0) break;
    await run(
      client,
      `INSERT INTO events (time, type, client_id, user_id, session_id, ip_address, error, details)
       SELECT g.t, g.type, c.client_id,
              CASE WHEN g.type <> 'CLIENT_LOGIN' THEN u.id::text END,
              CASE WHEN g.type IN ('LOGIN', 'CODE_TO_TOKEN', 'REFRESH_TOKEN', 'LOGOUT') THEN ${key("{tag} || ':es:' || g.i")} END,
              '10.' || (g.i % 200) || '.' || (g.i % 250) || '.' || (1 + g.i % 253),
              CASE WHEN g.type = 'LOGIN_ERROR' THEN 'invalid_user_credentials' END,
              CASE g.type WHEN 'CLIENT_LOGIN' THEN jsonb_build_object('grant_type', 'client_credentials')
                          WHEN 'LOGIN' THEN jsonb_build_object('username', u.username, 'credential_type', 'password')
                          WHEN 'LOGIN_ERROR' THEN jsonb_build_object('username', u.username)
                          ELSE jsonb_build_object('grant_type', 'refresh_token') END
       FROM (SELECT i, now() - make_interval(secs => ({day} - random()) * 86400) AS t, random() AS r,
                    1 + floor({users} * power(random(), 3))::int AS un, 1 + floor({clients} * power(random(), 3))::int AS cn,
                    CASE WHEN random() < 0.6 THEN 'CLIENT_LOGIN' ELSE (ARRAY['LOGIN','LOGIN','LOGIN','CODE_TO_TOKEN','CODE_TO_TOKEN','REFRESH_TOKEN','REFRESH_TOKEN','LOGIN_ERROR','LOGOUT','LOGOUT'])[1 + floor(random() * 10)::int] END AS type
             FROM generate_series(1, {n}) AS i) g
       JOIN seed_users u ON u.n = g.un JOIN seed_clients c ON c.n = g.cn
       ORDER BY g.t`,
      { ...v, day, n },
    );
    log?.(`identity: events, day ${EVENT_DAYS - day + 1}/${EVENT_DAYS}`);
  }
}

/** What autovacuum would have done by the time a real database grew this large. */
export async function settleIdentity(client) {
  await client.query(`VACUUM (ANALYZE) organizations, users, clients, roles, user_roles, user_credentials, action_tokens, oidc_models, events, admin_events`);
}
