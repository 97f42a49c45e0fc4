import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import request from 'supertest';
import { Browser, capturingLogger, eventually, parseForms, postForm, testRedisUrl } from '@hush/testing';
import { authorizationUrl, clientConfig } from '../../../services/identity/test/flows.js';
import { linkMailedTo, REDIRECT } from '../../../services/identity/test/account-mail.js';
import { readConfig as readMailerConfig } from '../../../services/mailer/src/config.js';
import { serveMailer, type Mailer } from '../../../services/mailer/test/harness.js';
import { bearer, type Account } from '../../../services/secrets/test/harness.js';
import { userToken } from '../../../services/secrets/test/identity.js';
import { startIdentitySystem, type IdentitySystem } from './identity-system.js';

/**
 * Promise: nothing usable at rest. Every kind of credential Hush handles is made through the real
 * system (identity, the secrets service, the mailer, PostgreSQL, Redis, SMTP), used as its owner
 * would, and then looked for — as it is, URL- and form-encoded, JSON-escaped, in base64, base64url
 * and hex — in everything a copy of the data or an operator's tooling holds: both databases as
 * pg_dump writes them, every key and value in Redis (while e-mails wait in the queue, and at the
 * end), every line the services and the mailers logged, the audit events and every service's
 * metrics. It is found nowhere.
 *
 * What is legitimately kept is kept in a shape that is no use without MASTER_KEY (or the sealing
 * key): secret values, recipient and notification addresses, TOTP keys and the client-secret copy
 * that CLIENT_SECRET_READBACK keeps for Keycloak's tools are sealed with AES-256-GCM; passwords,
 * passphrases, API tokens, client secrets, links, recovery and recipient codes and protocol
 * artifacts are stored as digests. The only plain credential-like data is identity's own record of
 * a person: an account's e-mail address is its login data (identity's database and the admin
 * events that name whom a handover went to), not a secret, and is looked for everywhere else.
 */

const ADMIN = '/auth/admin/realms/public';
const ACCOUNT = '/auth/realms/public/account';

type Place = 'identity database' | 'secrets database' | 'Redis while mail waits' | 'Redis' | 'logs' | 'events' | 'metrics';

interface Credential {
  kind: string;
  value: string;
  /** The same secret in another form (a TOTP key's bytes, a recovery code as it is compared). */
  also?: string[];
  /** Places where it is legitimately plain (see the file's comment). */
  allowedIn?: Place[];
  /** Written in any case (an address, a TOTP key in base32). */
  caseless?: boolean;
}

const credentials: Credential[] = [];

/** Records a credential made by the system; returns it, for the flow to use. */
function keep(kind: string, value: string | undefined, opts: Omit<Credential, 'kind' | 'value'> = {}): string {
  if (value === undefined || value.length < 6) throw new Error(`${kind}: no credential (${String(value)})`);
  if (!credentials.some((c) => c.value === value)) credentials.push({ kind, value, ...opts });
  return value;
}

/** An account's own address: identity's login data, looked for everywhere but there. */
const address = (kind: string, value: string) => keep(kind, value, { allowedIn: ['identity database', 'events'], caseless: true });

/** The forms in which a credential could have been written down. */
function shapes(value: string): string[] {
  const bytes = Buffer.from(value);
  const base64 = bytes.toString('base64');
  return [
    ...new Set([
      value,
      encodeURIComponent(value),
      new URLSearchParams({ v: value }).toString().slice(2),
      JSON.stringify(value).slice(1, -1),
      base64,
      base64.replace(/=+$/, ''),
      bytes.toString('base64url'),
      bytes.toString('hex'),
    ]),
  ];
}

/**
 * Whether a credential shows in `text`. A six-digit code could be part of any number or hex string,
 * so it counts only standing alone (no letter or digit either side, not a timestamp's fraction);
 * so too its hex form (the Redis snapshot writes every value as hex as well), where a digit is
 * `3x`, a letter `4x` to `7x` and a full stop `2e`.
 */
function occurs(text: string, shape: string): boolean {
  if (/^\d{6}$/.test(shape)) return new RegExp(`(?<![\\da-z.])${shape}(?![\\da-z])`, 'i').test(text);
  if (/^(3\d){6}$/.test(shape)) return new RegExp(`(?<!3\\d|[46][1-9a-f]|[57][0-9a]|2e)${shape}(?!3\\d|[46][1-9a-f]|[57][0-9a])`, 'i').test(text);
  return text.includes(shape);
}

/** A key's or a token's bytes, in the forms bytes are written down. */
const byteShapes = (bytes: Buffer) => [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')];

/** Every credential found in `text` of `place`, as "kind (shape)". */
function found(place: Place, text: string): string[] {
  const lower = text.toLowerCase();
  return credentials
    .filter((c) => !c.allowedIn?.includes(place))
    .flatMap((c) =>
      [c.value, ...(c.also ?? [])].flatMap(shapes).flatMap((shape) => {
        const hit = c.caseless ? lower.includes(shape.toLowerCase()) : occurs(text, shape);
        return hit ? [`${c.kind} (${shape === c.value ? 'as it is' : shape})`] : [];
      }),
    );
}

// ----- the system -----------------------------------------------------------------------------

let sys: IdentitySystem;
/**
 * Identity's e-mails go through a queue and a mailer of their own, to the same SMTP server: identity
 * starts before the secrets service's queue and mailer exist (startIdentitySystem).
 */
const identityMail = { prefix: `e2e-rest-${randomBytes(4).toString('hex')}`, key: randomBytes(32).toString('hex') };
const { logger: identityMailerLogger, logs: identityMailerLogs } = capturingLogger('identity-mailer-rest');
let identityMailer: Mailer;
let admin: string;
let alice: Account;
const suffix = randomBytes(3).toString('hex');

const startIdentityMailer = () =>
  serveMailer(
    readMailerConfig({
      REDIS_URL: testRedisUrl,
      QUEUE_PREFIX: identityMail.prefix,
      SMTP_URL: sys.smtp.url,
      MANAGEMENT_PORT: '0',
      MAIL_SEALING_KEY: identityMail.key,
      LOG_LEVEL: 'debug',
    }),
    identityMailerLogger,
  );

const api = () => request(sys.identity.url);
const adminCall = (method: 'get' | 'post' | 'put', path: string) => api()[method](`${ADMIN}${path}`).auth(admin, { type: 'bearer' });
const idOf = (res: { headers: Record<string, string> }) => String(res.headers['location']).split('/').pop() as string;

/** The key of the newest secret link mailed to `to` (waiting for the `count`-th e-mail). */
async function secretKeyMailedTo(to: string, count = 1): Promise<string> {
  const mails = await sys.smtp.waitFor(to, count, 30_000);
  return /\/secret\/([0-9a-z]{31})/.exec(mails[count - 1]?.mail.text ?? '')?.[1] as string;
}

/** A secret link mailed to `to`, read once through the API: the value, kept as `kind`. */
async function readMailed(kind: string, to: string, count = 1, body: object = {}, token?: string): Promise<string> {
  const key = keep(`${kind}: its link's key`, await secretKeyMailedTo(to, count));
  const req = sys.secrets.http.post(`/api/v1/secret/${key}`).send(body);
  const res = await (token ? req.set('Authorization', bearer(token)) : req);
  expect(res.status).toBe(200);
  return keep(kind, (res.body as { value: string }).value);
}

/** Opens an identity action link mailed to `to` and submits its form with `fields`. */
async function followLink(kind: string, to: string, fields: Record<string, string>, count = 1) {
  const { link } = await linkMailedTo(sys.smtp, to, count);
  keep(kind, link);
  keep(`${kind}: its key`, decodeURIComponent(new URL(link).searchParams.get('key') as string));
  const browser = new Browser(new URL(link).origin);
  const page = await browser.navigate(link);
  const done = await browser.submit(page.html, 0, fields);
  expect(done.res.status).toBe(200);
}

/** A user made through the admin API with a password of the administrator's choice, and an address of their own. */
async function aUser(name: string, opts: { verified?: boolean } = {}) {
  const username = `${name}-${suffix}`;
  const email = address(`${name}'s address`, `${username}@example.com`);
  const password = keep(`${name}'s password, set by an administrator`, `${name} pass ${randomBytes(6).toString('hex')}!`);
  const res = await adminCall('post', '/users').send({
    username,
    email,
    emailVerified: opts.verified ?? false,
    enabled: true,
    credentials: [{ type: 'password', value: password, temporary: false }],
  });
  expect(res.status).toBe(201);
  return { id: idOf(res), username, email, password };
}

/** A confidential client that signs people in with a code, made through the admin API (with the secret given, if any); its secret read back. */
async function aClient(name: string, secret?: string) {
  const res = await adminCall('post', '/clients').send({ clientId: `${name}-${suffix}`, redirectUris: [REDIRECT], standardFlowEnabled: true, ...(secret ? { secret } : {}) });
  expect(res.status).toBe(201);
  const readBack = await adminCall('get', `/clients/${idOf(res)}/client-secret`);
  expect(readBack.status).toBe(200);
  return { id: idOf(res), clientId: `${name}-${suffix}`, secret: (readBack.body as { value: string }).value };
}

/** Signs in at `config`'s client through the pages (password, then a second-factor code if asked) and redeems the code. */
async function signInAt(config: oidc.Configuration, username: string, password: string, code?: string) {
  const { url, verifier, state } = await authorizationUrl(config, REDIRECT, 'openid');
  const browser = new Browser(url.origin);
  const login = await browser.navigate(url.toString());
  let page = await browser.submit(login.html, 0, { username, password });
  if (code !== undefined) page = await browser.submit(page.html, 0, { code });
  const back = page.leftTo ? page : await browser.submit(page.html, 0, {});
  const callback = new URL(back.leftTo as string);
  keep(`${username}'s session cookie`, browser.cookie('_session'));
  keep(`${username}'s authorization code`, callback.searchParams.get('code') ?? undefined);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  keep(`${username}'s access token`, tokens.access_token);
  // The refresh token is looked up by its id (jti): that id is a credential too.
  keep(`${username}'s refresh token`, tokens.refresh_token, { also: [decodeJwt(tokens.refresh_token as string).jti as string] });
  keep(`${username}'s ID token`, tokens.id_token);
  return tokens;
}

/** How each type of Redis value is read whole (anything else is DUMPed). */
const READ: Record<string, string[]> = {
  string: ['get'],
  hash: ['hgetall'],
  list: ['lrange', '0', '-1'],
  set: ['smembers'],
  zset: ['zrange', '0', '-1', 'WITHSCORES'],
  stream: ['xrange', '-', '+'],
};

/** A snapshot of Redis: every key, and every value read by its type, as text and as hex. */
async function redisContents(): Promise<string> {
  const redis = new Redis(testRedisUrl);
  try {
    const parts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scanBuffer(cursor, 'COUNT', 1000);
      cursor = next.toString();
      const types = (await redis.pipeline(keys.map((key) => ['type', key])).exec()) ?? [];
      const reads = redis.pipeline();
      keys.forEach((key, i) => {
        const [command, ...args] = READ[String(types[i]?.[1])] ?? ['dump'];
        reads.callBuffer(command as string, key, ...args);
      });
      const values = (await reads.exec()) ?? [];
      keys.forEach((key, i) => parts.push(key.toString(), ...flatten(values[i]?.[1])));
    } while (cursor !== '0');
    return parts.join('\n');
  } finally {
    redis.disconnect();
  }
}

function flatten(value: unknown): string[] {
  if (Buffer.isBuffer(value)) return [value.toString('utf8'), value.toString('hex')];
  if (Array.isArray(value)) return value.flatMap(flatten);
  return typeof value === 'string' || typeof value === 'number' ? [String(value)] : [];
}

/** Job hashes (BullMQ keeps each job's data in a hash) under the two mail queues. */
async function jobsWaiting(): Promise<number> {
  const redis = new Redis(testRedisUrl);
  try {
    let n = 0;
    for (const prefix of [sys.secrets.env['QUEUE_PREFIX'] as string, identityMail.prefix]) {
      for await (const keys of redis.scanStream({ match: `${prefix}:*`, type: 'hash', count: 1000 }) as AsyncIterable<string[]>) {
        for (const key of keys) if (await redis.hexists(key, 'data')) n++;
      }
    }
    return n;
  } finally {
    redis.disconnect();
  }
}

const pgDump = async (url: string) => (await promisify(execFile)('pg_dump', ['--data-only', url], { maxBuffer: 256 * 1024 * 1024 })).stdout;
const metricsOf = async (url: string) => (await request(url).get('/metrics')).text;

// ----- making every kind of credential ---------------------------------------------------------

const haystacks: Partial<Record<Place, string>> = {};

beforeAll(async () => {
  sys = await startIdentitySystem({
    QUEUE_PREFIX: identityMail.prefix,
    MAIL_SEALING_KEY: identityMail.key,
    RELAY_INTERVAL_MS: '100',
    MAIL_BACKOFF_MS: '100',
    REGISTRATION: 'true',
    TRUST_PROXY: 'loopback',
  });
  identityMailer = await startIdentityMailer();
  admin = keep('an administrator’s access token', await sys.adminToken());
  keep('hush-admin’s client secret', sys.adminSecret);
  keep('hush-handover’s client secret', sys.handoverSecret);
  const hexKey = (kind: string, hex: string | undefined) => keep(kind, hex, { also: byteShapes(Buffer.from(hex ?? '', 'hex')) });
  hexKey('identity’s MASTER_KEY', sys.identity.env['MASTER_KEY']);
  hexKey('the secrets service’s MASTER_KEY', sys.secrets.env['MASTER_KEY']);
  hexKey('the secrets service’s MAIL_SEALING_KEY', sys.secrets.env['MAIL_SEALING_KEY']);
  hexKey('identity’s MAIL_SEALING_KEY', identityMail.key);
  alice = await sys.secrets.account();
  keep('an API token of the secrets service', alice.token);

  const bob = await aUser('bob', { verified: true });
  const bobToken = keep('bob’s access token for the secrets API', await userToken(sys.identity, bob.username, bob.password, 'secrets:read'));

  // ---- with the mailers stopped: everything that sends an e-mail, whose jobs then wait in Redis.
  await sys.mailer.close();
  await identityMailer.close();
  const share = async (kind: string, fields: Record<string, unknown>) => {
    const res = await sys.secrets.http
      .post('/api/v1/share')
      .set('Authorization', alice.auth)
      .send({ ttl: 3600, ...fields });
    expect(res.status).toBe(200);
    keep(`${kind}: its receipt's key`, (res.body as { metadata_key: string }).metadata_key);
    return res.body as { secret_key: string; metadata_key: string };
  };
  const rita = address('a recipient’s address', `rita-${suffix}@example.com`);
  const rex = address('another recipient’s address', `rex-${suffix}@example.com`);
  const creator = address('a creator’s notification address', `creator-${suffix}@example.com`);
  const plain = keep('a secret value', `plain value ${randomBytes(8).toString('hex')}`);
  await share('a secret value', { secret: plain, recipient: rita, notify_email: creator, notify: 'revealed' });
  const withPassphrase = keep('a secret value behind a passphrase', `guarded value ${randomBytes(8).toString('hex')}`);
  const passphrase = keep('a passphrase', `pass phrase ${randomBytes(6).toString('hex')}`);
  await share('a secret value behind a passphrase', { secret: withPassphrase, passphrase, recipient: rex });
  const forBob = keep('a recipient-only secret value', `for bob only ${randomBytes(8).toString('hex')}`);
  await share('a recipient-only secret value', { secret: forBob, recipient: bob.email, recipient_only: true });
  const nobody = address('a recipient-only secret’s address (no account)', `nobody-${suffix}@example.com`);
  const byCode = keep('a recipient-only secret value read with a code', `by code ${randomBytes(8).toString('hex')}`);
  const coded = await share('a recipient-only secret value read with a code', { secret: byCode, recipient: nobody, recipient_only: true });
  const asked = address('the address a secret request goes to', `asked-${suffix}@example.com`);
  const requested = await sys.secrets.http
    .post('/api/v1/requests')
    .set('Authorization', alice.auth)
    .send({ label: `vpn ${suffix}`, recipient: asked });
  expect(requested.status).toBe(201);

  const clientOwner = address('a handed-over client secret’s owner', `owner-${suffix}@example.com`);
  const handedClient = await adminCall('post', '/clients')
    .query({ handoverTo: clientOwner })
    .send({ clientId: `svc-${suffix}`, serviceAccountsEnabled: true, standardFlowEnabled: false });
  expect(handedClient.status).toBe(201);
  const person = address('a handed-over password’s owner', `person-${suffix}@example.com`);
  const handedUser = await adminCall('post', '/users')
    .query({ handoverTo: person })
    .send({ username: `person-${suffix}`, email: person, enabled: true });
  expect(handedUser.status).toBe(201);

  const forgetful = await aUser('pat');
  const resetBrowser = new Browser(sys.identity.url);
  const resetPage = await resetBrowser.navigate(`${sys.identity.issuer}/login-actions/reset-credentials`);
  expect((await resetBrowser.submit(resetPage.html, 0, { login: forgetful.username })).res.status).toBe(200);
  const invited = await aUser('ivy');
  expect((await adminCall('put', `/users/${invited.id}/execute-actions-email`).send(['UPDATE_PASSWORD'])).status).toBe(204);
  const unverified = await aUser('vic');
  expect((await adminCall('put', `/users/${unverified.id}/execute-actions-email`).send(['VERIFY_EMAIL'])).status).toBe(204);
  const newcomer = address('a registering person’s address', `newcomer-${suffix}@example.com`);
  const newcomerPassword = keep('a password chosen at registration', `registered pass ${randomBytes(6).toString('hex')}`);
  const registration = new Browser(sys.identity.url);
  const registrationPage = await registration.navigate(`${sys.identity.issuer}/login-actions/registration`);
  const registered = await registration.submit(registrationPage.html, 0, {
    username: `newcomer-${suffix}`,
    email: newcomer,
    password: newcomerPassword,
    confirm: newcomerPassword,
  });
  expect(registered.res.status).toBe(201);

  // Four secret links, a request link, two handovers; a reset, two execute-actions links and a registration.
  await eventually(async () => ((await jobsWaiting()) >= 11 ? true : undefined), 30_000);
  haystacks['Redis while mail waits'] = await redisContents();
  await sys.startMailer();
  identityMailer = await startIdentityMailer();

  // ---- the e-mails arrive; each credential is used as its owner would.
  expect(await readMailed('a secret value, as its recipient reads it', rita, 1)).toBe(plain);
  expect(await readMailed('a secret value behind a passphrase, as read', rex, 1, { passphrase })).toBe(withPassphrase);
  expect(await readMailed('a recipient-only secret value, as its recipient reads it', bob.email, 1, {}, bobToken)).toBe(forBob);

  // A recipient without an account asks the reveal page for a one-time code and reads with it.
  await secretKeyMailedTo(nobody);
  const codeBrowser = new Browser(sys.secrets.url);
  const recipientPage = await codeBrowser.navigate(`/secret/${coded.secret_key}`);
  const codePage = await codeBrowser.submit(recipientPage.html, 0, {});
  expect(codePage.res.status).toBe(200);
  const codeMail = (await sys.smtp.waitFor(nobody, 2, 30_000))[1];
  const code = keep('a recipient’s one-time code', /\b(\d{6})\b/.exec(codeMail?.mail.text ?? '')?.[1]);
  const read = await codeBrowser.submit(codePage.html, 0, { code });
  expect(read.res.status).toBe(200);
  expect(read.html).toContain(byCode);

  // A secret request: its link goes to the person asked, who answers it; the requester reads the answer.
  const requestMail = (await sys.smtp.waitFor(asked, 1, 30_000))[0];
  const requestKey = keep('a secret request’s key', /\/request\/([0-9a-z]{31})/.exec(requestMail?.mail.text ?? '')?.[1]);
  const answer = keep('a secret sent through a request', `answered ${randomBytes(8).toString('hex')}`);
  const answerPassphrase = keep('a passphrase on a request’s answer', `answer phrase ${randomBytes(6).toString('hex')}`);
  expect((await sys.secrets.http.post(`/api/v1/request/${requestKey}`).send({ secret: answer, passphrase: answerPassphrase })).status).toBe(201);

  // Handed over: a client secret at creation and at rotation, a password at creation and at reset.
  const clientSecret = await readMailed('a client secret handed over at creation', clientOwner);
  expect((await postForm(sys.tokenUrl, { grant_type: 'client_credentials', client_id: `svc-${suffix}`, client_secret: clientSecret })).status).toBe(200);
  const rotated = await adminCall('post', `/clients/${idOf(handedClient)}/client-secret`).query({ handoverTo: clientOwner });
  expect(rotated.status).toBe(200);
  const rotatedSecret = await readMailed('a client secret handed over at rotation', clientOwner, 2);
  const serviceToken = await postForm(sys.tokenUrl, { grant_type: 'client_credentials', client_id: `svc-${suffix}`, client_secret: rotatedSecret });
  expect(serviceToken.status).toBe(200);
  keep('a client-credentials access token', String(serviceToken.body['access_token']));
  await readMailed('a password handed over at creation', person);
  const reset = await adminCall('put', `/users/${idOf(handedUser)}/reset-password`)
    .query({ handoverTo: person })
    .send({ type: 'password', temporary: false });
  expect(reset.status).toBe(204);
  const personPassword = await readMailed('a password handed over at a reset', person, 2);

  // Links: a reset, an update-password and a verify-email action, a registration's confirmation.
  const patNew = keep('a password set through a reset link', `reset pass ${randomBytes(6).toString('hex')}`);
  await followLink('a password-reset link', forgetful.email, { password: patNew, confirm: patNew });
  const ivyNew = keep('a password set through an execute-actions link', `invited pass ${randomBytes(6).toString('hex')}`);
  await followLink('an execute-actions (update password) link', invited.email, { password: ivyNew, confirm: ivyNew });
  await followLink('an execute-actions (verify e-mail) link', unverified.email, {});
  await followLink('a registration’s confirmation link', newcomer, {});

  // Clients and passwords an administrator or the operator sets; client secrets read back (CLIENT_SECRET_READBACK).
  const app = await aClient('app');
  keep('a client secret generated at creation, read back', app.secret);
  const chosen = keep('a client secret chosen by an administrator', `chosen-${randomBytes(24).toString('hex')}`);
  expect((await aClient('chosen', chosen)).secret).toBe(chosen);
  const regenerated = await adminCall('post', `/clients/${app.id}/client-secret`);
  const appSecret = keep('a client secret regenerated through the admin API', (regenerated.body as { value: string }).value);
  expect((await adminCall('get', `/clients/${app.id}/client-secret`)).body).toEqual({ type: 'secret', value: appSecret });
  const cliClient = await sys.identity.cli<{ client_secret: string }>('clients', 'create', '--name', `cli ${suffix}`, '--grants', 'client_credentials');
  keep('a client secret made by the CLI', cliClient.client_secret);
  const set = keep('a password set by an administrator’s reset', `admin reset ${randomBytes(6).toString('hex')}`);
  expect((await adminCall('put', `/users/${bob.id}/reset-password`).send({ type: 'password', value: set, temporary: false })).status).toBe(204);
  const generated = await sys.identity.cli<{ password: string }>('users', 'create', `gen-${suffix}`);
  keep('a password the CLI generated', generated.password);

  // A second factor: an authenticator app set up in the account console, its recovery codes, new ones.
  const accountConsole = new Browser(sys.identity.url);
  const login = await accountConsole.navigate(`${ACCOUNT}/security`);
  await accountConsole.submit(login.html, 0, { username: bob.username, password: set });
  const enrol = await accountConsole.navigate(`${ACCOUNT}/security/totp`);
  const shown = (/id="totp-secret">([A-Z2-7 ]+)</.exec(enrol.html)?.[1] ?? '').replace(/ /g, '');
  const totp = keep('a TOTP key', shown, { also: byteShapes(base32Bytes(shown)), caseless: true });
  // Confirmed with the previous step's code (accepted as clock drift), so the current one signs in below.
  const enrolled = await accountConsole.submit(enrol.html, 1, { code: codeAt(totp, Date.now() - 30_000) });
  const recoveryCodes = (html: string) => [...html.matchAll(/<li><code>([a-z2-9]{5}-[a-z2-9]{5})<\/code><\/li>/g)].map((m) => m[1] as string);
  const firstCodes = recoveryCodes(enrolled.html);
  const freshCodes = recoveryCodes((await accountConsole.submit((await accountConsole.navigate(`${ACCOUNT}/security`)).html, 1, {})).html);
  expect([firstCodes.length, freshCodes.length]).toEqual([10, 10]);
  for (const c of [...firstCodes, ...freshCodes]) keep('a recovery code', c, { also: [c.replace('-', '')] });

  // Tokens: a sign-in with password and TOTP code, one with a recovery code, a refresh.
  const config = await clientConfig(sys.identity.issuer, app.clientId, appSecret);
  await signInAt(config, bob.username, set, codeAt(totp, Date.now()));
  const tokens = await signInAt(config, bob.username, set, freshCodes[0]);
  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
  keep('a refreshed access token', refreshed.access_token);
  keep('a rotated refresh token', refreshed.refresh_token, { also: [decodeJwt(refreshed.refresh_token as string).jti as string] });
  // The people who set passwords through links and handovers sign in with them.
  await signInAt(config, forgetful.username, patNew);
  await signInAt(config, invited.username, ivyNew);
  await signInAt(config, `person-${suffix}`, personPassword);

  // The requester reads the request's answer.
  const recent = await sys.secrets.http.get('/api/v1/private/recent').set('Authorization', alice.auth);
  const answered = (recent.body as { request_label?: string; metadata_key: string }[]).find((m) => m.request_label === `vpn ${suffix}`);
  const receipt = await sys.secrets.http.get(`/api/v1/private/${answered?.metadata_key}`).set('Authorization', alice.auth);
  const answerKey = keep('an answered request’s secret key', (receipt.body as { secret_key: string }).secret_key);
  const answerRead = await sys.secrets.http.post(`/api/v1/secret/${answerKey}`).set('Authorization', alice.auth).send({ passphrase: answerPassphrase });
  expect(answerRead.body).toMatchObject({ value: answer });

  // Last, bob changes his password in the account console.
  const changed = keep('a password changed in the account console', `changed pass ${randomBytes(6).toString('hex')}`);
  const passwordPage = await accountConsole.navigate(`${ACCOUNT}/password`);
  const passwordForm = parseForms(passwordPage.html).find((f) => f.action === `${ACCOUNT}/password`);
  expect((await accountConsole.send(`${ACCOUNT}/password`, { ...passwordForm?.hidden, current: set, password: changed, confirm: changed })).status).toBe(303);

  // User events are written in batches, in order: wait for that last one.
  await eventually(async () => {
    const events = (await adminCall('get', '/events').query({ max: 1000, type: 'UPDATE_PASSWORD' })).body as { userId: string }[];
    return events.some((e) => e.userId === bob.id) ? true : undefined;
  }, 30_000);

  const events = await Promise.all([adminCall('get', '/events').query({ max: 10_000 }), adminCall('get', '/admin-events').query({ max: 10_000 })]);
  haystacks['events'] = events.map((e) => JSON.stringify(e.body)).join('\n');
  haystacks['identity database'] = await pgDump(sys.identity.config.DATABASE_URL);
  haystacks['secrets database'] = await pgDump(sys.secrets.config.DATABASE_URL);
  haystacks['Redis'] = await redisContents();
  haystacks['metrics'] = (
    await Promise.all([
      metricsOf(sys.identity.managementUrl),
      metricsOf(sys.secrets.managementUrl),
      metricsOf(`http://127.0.0.1:${sys.mailer.port}`),
      metricsOf(`http://127.0.0.1:${identityMailer.port}`),
    ])
  ).join('\n');
  haystacks['logs'] = [...sys.identity.logs, ...sys.secrets.logs, ...sys.mailerLogs, ...identityMailerLogs].join('\n');
}, 240_000);

afterAll(async () => {
  await identityMailer?.close();
  await sys?.close();
});

/** RFC 4648 base32, as a TOTP key is shown: the key's bytes. */
function base32Bytes(text: string): Buffer {
  let bits = '';
  for (const c of text) bits += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.indexOf(c).toString(2).padStart(5, '0');
  return Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
}

/** The code an authenticator app shows for a base32 `key` at `time` (ms): RFC 6238 with SHA-1, 6 digits, 30 s steps. */
function codeAt(key: string, time: number): string {
  const step = Buffer.alloc(8);
  step.writeBigUInt64BE(BigInt(Math.floor(time / 30_000)));
  const mac = createHmac('sha1', base32Bytes(key)).update(step).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

// ----- the search -------------------------------------------------------------------------------

describe('every credential Hush made is found nowhere', () => {
  it('takes a six-digit code inside a longer number for no finding, as text or hex, and finds it standing alone', () => {
    const hex = (text: string) => Buffer.from(text).toString('hex');
    // A BullMQ job's timestamp in milliseconds holds any six digits now and then; the Redis snapshot has it as text and as hex.
    expect([occurs('1795838715749', '715749'), occurs(hex('"timestamp":1795838715749,'), hex('715749'))]).toEqual([false, false]);
    expect([occurs('code 715749.', '715749'), occurs(hex('code:715749'), hex('715749')), occurs(hex('715749'), hex('715749'))]).toEqual([true, true, true]);
  });

  it('made them all: every kind, through the real system', () => {
    const kinds = credentials.map((c) => c.kind).join('\n');
    for (const kind of [
      'secret value',
      'passphrase',
      'API token',
      'client secret',
      'password',
      'link',
      'TOTP key',
      'recovery code',
      'access token',
      'refresh token',
      'ID token',
      'authorization code',
      'session cookie',
      'one-time code',
      'address',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it.each(['identity database', 'secrets database'] as const)('the %s, as pg_dump writes it', (place) => {
    const text = haystacks[place] as string;
    // A real dump, with this system's rows.
    expect(text).toContain(place === 'identity database' ? `svc-${suffix}` : alice.custid);
    expect(found(place, text)).toEqual([]);
  });

  it.each(['Redis while mail waits', 'Redis'] as const)('%s: every key and value', (place) => {
    const text = haystacks[place] as string;
    // The snapshot reached this system's keys: identity's and the secrets service's, and both queues.
    for (const prefix of [sys.identity.config.REDIS_PREFIX, sys.secrets.config.REDIS_PREFIX, identityMail.prefix, sys.secrets.env['QUEUE_PREFIX'] as string]) {
      expect(text).toContain(prefix);
    }
    expect(found(place, text)).toEqual([]);
  });

  it('the logs of identity, the secrets service and the mailers', () => {
    for (const line of ['/protocol/openid-connect/token', '/api/v1/secret/', 'mailer started']) expect(haystacks['logs']).toContain(line);
    expect(found('logs', haystacks['logs'] as string)).toEqual([]);
  });

  it('the user and admin events', () => {
    for (const type of ['"CODE_TO_TOKEN"', '"UPDATE_PASSWORD"', '"operationType":"CREATE"']) expect(haystacks['events']).toContain(type);
    expect(found('events', haystacks['events'] as string)).toEqual([]);
  });

  it('the metrics of every service', () => {
    expect(haystacks['metrics']).toContain('# HELP');
    expect(found('metrics', haystacks['metrics'] as string)).toEqual([]);
  });
});
