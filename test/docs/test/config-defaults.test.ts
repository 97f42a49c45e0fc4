import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema as identitySchema } from '../../../services/identity/src/config.js';
import { configSchema as mailerSchema } from '../../../services/mailer/src/config.js';
import { configSchema as secretsSchema } from '../../../services/secrets/src/config.js';
import { claims, statedValue } from './config-claims.js';

// Every default docs/ states for a configuration variable is the default the code has: each
// service's zod schema parsed with nothing set (the value a process gets when the variable is
// unset), compared with what the document says (config-claims.ts reads the forms we write them in).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** What the test needs of a zod object schema: its fields, each of which parses on its own. */
interface Schema {
  shape: Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }>;
}
const SCHEMAS: Record<string, Schema> = { identity: identitySchema, secrets: secretsSchema, mailer: mailerSchema };

/** Each variable's defaults by service: what the schema makes of an unset variable. */
function defaults(): Map<string, Map<string, unknown>> {
  const byKey = new Map<string, Map<string, unknown>>();
  for (const [service, schema] of Object.entries(SCHEMAS))
    for (const [key, field] of Object.entries(schema.shape)) {
      const parsed = field.safeParse(undefined);
      if (!parsed.success || parsed.data === undefined) continue;
      const value = Buffer.isBuffer(parsed.data) ? undefined : parsed.data;
      (byKey.get(key) ?? byKey.set(key, new Map()).get(key)!).set(service, value);
    }
  return byKey;
}
const defaultsByKey = defaults();
const keys = new Set(Object.values(SCHEMAS).flatMap((s) => Object.keys(s.shape)));

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}
const documents = markdownUnder(join(root, 'docs')).map((path) => relative(root, path));

describe('the configuration defaults docs/ states', () => {
  it('reads the defaults of every service’s schema as an unset variable gets them', () => {
    expect(defaultsByKey.get('DATABASE_POOL_MAX')).toEqual(
      new Map([
        ['identity', 20],
        ['secrets', 20],
      ]),
    );
    expect(defaultsByKey.get('PORT')).toEqual(
      new Map([
        ['identity', 8080],
        ['secrets', 3000],
      ]),
    );
    expect(defaultsByKey.get('CLIENT_CACHE')).toEqual(new Map([['identity', true]]));
    expect(defaultsByKey.has('MASTER_KEY')).toBe(false);
  });

  it('finds stated defaults in the forms the documents write them, and nothing else', () => {
    const k = new Set(['DATABASE_POOL_MAX', 'REDIS_TIMEOUT_MS', 'REVOCATIONS_CHANNEL', 'TTL_MAX', 'HANDOVER_CLIENT_SECRET', 'LOGIN_MAX_FAILURES']);
    const found = claims(
      [
        'each pod opens `replicas × DATABASE_POOL_MAX` (10 per pod by default), and `REDIS_TIMEOUT_MS` (1000: connect),',
        'the channel `REVOCATIONS_CHANNEL` (default `hush:revocations`), `TTL_MAX` (30 days); `HANDOVER_CLIENT_SECRET` (32 characters or more),',
        'per (username, IP) (`LOGIN_MAX_FAILURES`, 5) and `DATABASE_POOL_MAX` (10 in the manifests), `REDIS_TIMEOUT_MS`, `REVOCATIONS_CHANNEL`.',
        'the channel `REVOCATIONS_CHANNEL` (`my:channel`, for example), `replicas × DATABASE_POOL_MAX` of both services (12 per pod by',
        'default) and `REDIS_TIMEOUT_MS` (250',
        'ms by default), `LOGIN_MAX_FAILURES`, the failures allowed (6).',
        '```sh',
        'DATABASE_POOL_MAX=3 # `DATABASE_POOL_MAX` (3)',
        '```',
      ].join('\n'),
      k,
    );
    expect(found.map((c) => [c.key, c.value])).toEqual([
      ['DATABASE_POOL_MAX', 10],
      ['REDIS_TIMEOUT_MS', 1000],
      ['REVOCATIONS_CHANNEL', 'hush:revocations'],
      ['TTL_MAX', 30 * 86_400],
      ['LOGIN_MAX_FAILURES', 5],
      ['DATABASE_POOL_MAX', 12],
      ['REDIS_TIMEOUT_MS', 250],
      ['LOGIN_MAX_FAILURES', 6],
    ]);
    expect(statedValue('REVOCATIONS_MAX_LAG_MS', 'default 4 s')).toBe(4000);
    expect(statedValue('WEB_SESSION_IDLE', 'default 30 minutes')).toBe(1800);
  });

  // A variable whose schema has no default (INTERNAL_URL: AUTH_URL when unset; API_AUDIENCE:
  // derived from BASE_URL) has its defaults in prose, which no schema can check.
  it.each(documents)('%s states only the defaults the code has', (document) => {
    const wrong = claims(readFileSync(join(root, document), 'utf8'), keys)
      .filter((c) => defaultsByKey.has(c.key) && ![...(defaultsByKey.get(c.key)?.values() ?? [])].some((d) => d === c.value))
      .map((c) => `${document}:${c.line} ${c.text} says ${JSON.stringify(c.value)}; the code: ${JSON.stringify(Object.fromEntries(defaultsByKey.get(c.key) ?? []))}`);
    expect(wrong).toEqual([]);
  });
});
