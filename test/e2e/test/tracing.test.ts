import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import { Browser, createTestDatabase, eventually, freePort, parseForms, startScriptFlags, startSmtp, testRedisUrl, type TestDatabase, type TestSmtp } from '@hush/testing';

/**
 * Tracing across the three services, started as their images start them (the start scripts'
 * flags, hence the tracing hook) with only the standard OTEL_* variables, exporting OTLP/HTTP JSON
 * to a receiver in this process. One share with a recipient, made with a bearer token, is one
 * trace: identity's token request (continuing the caller's traceparent), the secrets API request,
 * the outbox relay and the BullMQ job it adds, the mailer's processing of that job and its SMTP
 * send; and nothing exported holds the secret, its keys, the link, the address or a credential.
 * Identity's own e-mail likewise: a password reset request is one trace down to its SMTP send.
 */
const ROOT = process.cwd();

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
}
interface Exported extends OtlpSpan {
  service: string;
}

/** OTLP's JSON carries ids as hex; accept base64 too. */
const hex = (id: string | undefined) => (id === undefined || id === '' ? undefined : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex'));
const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value;
const SERVER = 2;
const PRODUCER = 4;
const CONSUMER = 5;
const CLIENT = 3;

/** An OTLP/HTTP receiver (JSON): every body as received, and the spans in them. */
class Receiver {
  readonly bodies: string[] = [];
  readonly spans: Exported[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += String(chunk)));
      req.on('end', () => {
        this.bodies.push(body);
        const parsed = JSON.parse(body) as { resourceSpans?: { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
        for (const rs of parsed.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans ?? [])
            for (const span of ss.spans ?? [])
              this.spans.push({ ...span, traceId: hex(span.traceId) ?? '', spanId: hex(span.spanId) ?? '', parentSpanId: hex(span.parentSpanId), service });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}`;
  }

  inTrace(traceId: string): Exported[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const children: ChildProcess[] = [];
const output: Record<string, string> = {};
let receiver: Receiver;
let smtp: TestSmtp;
let databases: TestDatabase[] = [];
let ports: { identity: number; secrets: number };
let clientCredentials: { client_id: string; client_secret: string };
/** A person with an address, who asks for a password reset. */
const resetUser = { username: `traced-${randomBytes(4).toString('hex')}`, email: `reset-${randomBytes(4).toString('hex')}@example.com` };

/** A service's process: its start script's flags and entry point, from its folder (as its image runs it). */
function start(service: string, env: NodeJS.ProcessEnv, args?: string[]): ChildProcess {
  const argv = args ?? [...startScriptFlags(service), 'dist/src/main.js'];
  const child = spawn(process.execPath, argv, { cwd: join(ROOT, 'services', service), env, stdio: ['ignore', 'pipe', 'pipe'] });
  output[service] = '';
  child.stdout?.on('data', (c) => (output[service] += String(c)));
  child.stderr?.on('data', (c) => (output[service] += String(c)));
  children.push(child);
  return child;
}

async function cli(service: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: join(ROOT, 'services', service), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += String(c)));
  child.stderr.on('data', (c) => (err += String(c)));
  const [code] = (await once(child, 'exit')) as [number];
  if (code !== 0) throw new Error(`${service} ${args.join(' ')} exited ${code}: ${err}`);
  return out;
}

async function healthy(port: number): Promise<void> {
  await eventually(async () => ((await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.ok ? true : undefined), 30_000);
}

const key = () => randomBytes(32).toString('hex');

beforeAll(async () => {
  receiver = new Receiver();
  const collector = await receiver.start();
  smtp = await startSmtp();
  databases = await Promise.all([createTestDatabase('tracing_identity'), createTestDatabase('tracing_secrets')]);
  const [identityDb, secretsDb] = databases as [TestDatabase, TestDatabase];
  ports = { identity: await freePort(), secrets: await freePort() };
  const management = { identity: await freePort(), secrets: await freePort(), mailer: await freePort() };
  const auth = `http://127.0.0.1:${ports.identity}`;
  const base = `http://127.0.0.1:${ports.secrets}`;
  const shared = {
    PATH: process.env.PATH,
    REDIS_URL: testRedisUrl,
    QUEUE_PREFIX: `tracing-${randomBytes(4).toString('hex')}`,
    MAIL_SEALING_KEY: key(),
    HANDOVER_CLIENT_SECRET: key(),
    LOG_LEVEL: 'debug',
    // Tracing, by the standard variables alone: an OTLP/HTTP endpoint, JSON, exported promptly.
    OTEL_EXPORTER_OTLP_ENDPOINT: collector,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  const webClientSecret = key();
  const identity = {
    ...shared,
    DATABASE_URL: identityDb.url,
    MASTER_KEY: key(),
    AUTH_URL: auth,
    INTERNAL_URL: auth,
    PORT: String(ports.identity),
    MANAGEMENT_PORT: String(management.identity),
    SECRETS_URL: base,
    SECRETS_API_AUDIENCE: `${base}/api/v1`,
    SECRETS_BASE_URL: base,
    SECRETS_WEB_CLIENT_SECRET: webClientSecret,
    ADMIN_CLIENT_SECRET: key(),
  };
  const secrets = {
    ...shared,
    DATABASE_URL: secretsDb.url,
    MASTER_KEY: key(),
    BASE_URL: base,
    PORT: String(ports.secrets),
    MANAGEMENT_PORT: String(management.secrets),
    IDENTITY_ISSUER: `${auth}/auth/realms/public`,
    IDENTITY_INTERNAL_URL: auth,
    WEB_CLIENT_SECRET: webClientSecret,
    RELAY_INTERVAL_MS: '100',
  };
  const mailer = { ...shared, SMTP_URL: smtp.url, MANAGEMENT_PORT: String(management.mailer), MAIL_FROM: 'Hush <no-reply@hush.test>' };
  // Each service's database independent of the other's: their one-shots side by side, then the
  // client and the person, both made in identity's bootstrapped database.
  await Promise.all([cli('identity', identity, ['bootstrap']), cli('secrets', secrets, ['migrate'])]);
  const [client] = await Promise.all([
    cli('identity', identity, ['clients', 'create', '--name', 'tracing e2e', '--grants', 'client_credentials', '--scopes', 'secrets:write,secrets:read', '--json']),
    cli('identity', identity, ['users', 'create', resetUser.username, '--password', key(), '--email', resetUser.email, '--email-verified']),
  ]);
  clientCredentials = JSON.parse(client) as typeof clientCredentials;
  start('identity', identity);
  start('secrets', secrets);
  start('mailer', mailer);
  await Promise.all(Object.values(management).map(healthy));
}, 90_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await smtp?.close();
  await receiver?.close();
  await Promise.all(databases.map((d) => d.drop()));
});

it('one share with a recipient, made with a bearer token, is one trace from the token to the SMTP send, holding no secret', async () => {
  const traceId = randomBytes(16).toString('hex');
  const caller = (span = randomBytes(8).toString('hex')) => `00-${traceId}-${span}-01`;

  const tokenRes = await request(`http://127.0.0.1:${ports.identity}`)
    .post('/auth/realms/public/protocol/openid-connect/token')
    .set('traceparent', caller())
    .type('form')
    .send({ grant_type: 'client_credentials', scope: 'secrets:write', client_id: clientCredentials.client_id, client_secret: clientCredentials.client_secret });
  expect(tokenRes.status).toBe(200);
  const token = (tokenRes.body as { access_token: string }).access_token;

  const value = `traced secret ${randomBytes(8).toString('hex')}`;
  const address = `traced-${randomBytes(4).toString('hex')}@example.com`;
  const shared = await request(`http://127.0.0.1:${ports.secrets}`)
    .post('/api/v1/share')
    .set('traceparent', caller())
    .set('authorization', `Bearer ${token}`)
    .type('form')
    .send({ secret: value, recipient: address, ttl: '600' });
  expect(shared.status).toBe(200);
  const { secret_key: secretKey, metadata_key: metadataKey } = shared.body as { secret_key: string; metadata_key: string };
  const [mail] = await smtp.waitFor(address, 1, 30_000);
  expect(mail?.mail.text).toContain(secretKey);

  // Every span of the chain, in the caller's trace, each the child of the one before it.
  const chain = await eventually(async () => {
    const spans = receiver.inTrace(traceId);
    const find = (service: string, test: (s: Exported) => boolean) => spans.find((s) => s.service === service && test(s));
    const token = find('hush-identity', (s) => s.kind === SERVER && s.name.includes('/protocol/openid-connect/token'));
    const share = find('hush-secrets', (s) => s.kind === SERVER && s.name === 'POST /api/v1/share');
    const relay = find('hush-secrets', (s) => s.name === 'outbox relay');
    const send = find('hush-secrets', (s) => s.kind === PRODUCER && s.name === 'send hush-mail');
    const process = find('hush-mailer', (s) => s.kind === CONSUMER && s.name === 'process hush-mail');
    const smtpSend = find('hush-mailer', (s) => s.kind === CLIENT && s.name === 'smtp send');
    return token && share && relay && send && process && smtpSend ? { token, share, relay, send, process, smtpSend, spans } : undefined;
  }, 30_000);
  expect(descendantOf(chain.spans, chain.relay, chain.share.spanId)).toBe(true);
  expect(chain.send.parentSpanId).toBe(chain.relay.spanId);
  expect(chain.process.parentSpanId).toBe(chain.send.spanId);
  expect(chain.smtpSend.parentSpanId).toBe(chain.process.spanId);
  expect(attribute(chain.share, 'http.route')?.stringValue).toBe('/api/v1/share');
  // PostgreSQL and Redis under the share: its statement, and the job's Redis commands under the producer span.
  expect(
    chain.spans.some((s) => s.service === 'hush-secrets' && attribute(s, 'db.system.name')?.stringValue === 'postgresql' && descendantOf(chain.spans, s, chain.share.spanId)),
  ).toBe(true);
  expect(chain.spans.some((s) => attribute(s, 'db.system.name')?.stringValue === 'redis' && descendantOf(chain.spans, s, chain.send.spanId))).toBe(true);

  // Nothing exported names the secret, its keys, the link, the address or a credential.
  const exported = receiver.bodies.join('\n');
  for (const secret of [value, secretKey, metadataKey, address, token, clientCredentials.client_secret, `/secret/${secretKey}`]) expect(exported).not.toContain(secret);

  // The share's log lines carry its trace id.
  const line = output['secrets']
    ?.split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; path?: string; trace_id?: string })
    .find((l) => l.msg === 'request' && l.path === '/api/v1/share');
  expect(line?.trace_id).toBe(traceId);
}, 90_000);

it('a password reset e-mail is one trace from the request that asked for it to the SMTP send, holding no address or link', async () => {
  const traceId = randomBytes(16).toString('hex');
  const person = new Browser(`http://127.0.0.1:${ports.identity}`);
  const page = await person.navigate('/auth/realms/public/login-actions/reset-credentials');
  const form = parseForms(page.html)[0];
  if (!form) throw new Error(`no form on the reset page:\n${page.html}`);
  const asked = await person.send(form.action, { ...form.hidden, login: resetUser.username }, { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` });
  expect(asked.status).toBe(200);
  const [mail] = await smtp.waitFor(resetUser.email, 1, 30_000);
  const link = /https?:\/\/\S*action-token\S*/.exec(mail?.mail.text ?? '')?.[0];
  expect(link).toBeDefined();

  const chain = await eventually(async () => {
    const spans = receiver.inTrace(traceId);
    const find = (service: string, test: (s: Exported) => boolean) => spans.find((s) => s.service === service && test(s));
    const asking = find('hush-identity', (s) => s.kind === SERVER && s.name.includes('reset-credentials'));
    const relay = find('hush-identity', (s) => s.name === 'outbox relay');
    const send = find('hush-identity', (s) => s.kind === PRODUCER && s.name === 'send hush-mail');
    const process = find('hush-mailer', (s) => s.kind === CONSUMER && s.name === 'process hush-mail');
    const smtpSend = find('hush-mailer', (s) => s.kind === CLIENT && s.name === 'smtp send');
    return asking && relay && send && process && smtpSend ? { asking, relay, send, process, smtpSend, spans } : undefined;
  }, 30_000);
  expect(descendantOf(chain.spans, chain.relay, chain.asking.spanId)).toBe(true);
  expect(chain.send.parentSpanId).toBe(chain.relay.spanId);
  expect(chain.process.parentSpanId).toBe(chain.send.spanId);
  expect(chain.smtpSend.parentSpanId).toBe(chain.process.spanId);

  const exported = receiver.bodies.join('\n');
  for (const secret of [resetUser.email, link as string, new URL(link as string).searchParams.get('key') ?? link]) expect(exported).not.toContain(secret);
}, 90_000);

/** Whether `span` descends from the span `ancestorId` through the spans exported. */
function descendantOf(spans: Exported[], span: Exported, ancestorId: string): boolean {
  let parent = span.parentSpanId;
  for (let depth = 0; parent !== undefined && depth < 50; depth++) {
    if (parent === ancestorId) return true;
    parent = spans.find((s) => s.spanId === parent)?.parentSpanId;
  }
  return false;
}
