import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What the deployment files may assume about each service, read from the services themselves:
 * the variables they read (their .env.example lists every one), their default port, and their
 * entry points. Nothing here is copied from the compose file or the manifests under test.
 */

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export type ServiceName = 'identity' | 'secrets' | 'mailer';
export const SERVICES: readonly ServiceName[] = ['identity', 'secrets', 'mailer'];

/** Variables a service must be given: it has no default for them and refuses to start without. */
export const REQUIRED: Record<ServiceName, string[]> = {
  identity: ['MASTER_KEY'],
  secrets: ['MASTER_KEY'],
  mailer: ['SMTP_URL', 'MAIL_SEALING_KEY'],
};

/**
 * Variables agreed for work in flight that a service's .env.example does not list yet: the
 * secrets service's e-mail outbox (QUEUE_PREFIX), and the mailer, whose .env.example is being
 * written. Once a service's .env.example lists them these entries change nothing.
 */
const AGREED: Record<ServiceName, string[]> = {
  identity: [],
  secrets: ['QUEUE_PREFIX'],
  mailer: [
    'MANAGEMENT_PORT',
    'REDIS_URL',
    'QUEUE_PREFIX',
    'SMTP_URL',
    'SMTP_TLS_REJECT_UNAUTHORIZED',
    'SMTP_REQUIRE_TLS',
    'MAIL_FROM',
    'CONCURRENCY',
    'LOG_LEVEL',
    'SHUTDOWN_TIMEOUT',
  ],
};
const AGREED_PORT: Record<ServiceName, number | undefined> = { identity: 8080, secrets: 3000, mailer: undefined };

const envExamplePath = (service: ServiceName) => join(repoRoot, 'services', service, '.env.example');

/** `NAME=value` and commented-out `# NAME=value` lines of a service's .env.example. */
export function envExample(service: ServiceName): Map<string, string> {
  const vars = new Map<string, string>();
  const path = envExamplePath(service);
  if (!existsSync(path)) return vars;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const m = /^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m?.[1]) vars.set(m[1], m[2] ?? '');
  }
  return vars;
}

/** Every variable the service reads. */
export function readsVariables(service: ServiceName): Set<string> {
  return new Set([...envExample(service).keys(), ...AGREED[service]]);
}

/** OpenTelemetry's standard variables, read by every service's tracing hook (@hush/telemetry), not by its config schema. */
const TRACING = /^OTEL_[A-Z0-9_]+$/;

/** A variable the service reads, directly or as `<NAME>_FILE` (packages/common loadConfig), or a tracing variable. */
export function isReadBy(service: ServiceName, name: string): boolean {
  const vars = readsVariables(service);
  return vars.has(name) || (name.endsWith('_FILE') && vars.has(name.slice(0, -'_FILE'.length))) || TRACING.test(name);
}

/** The public port when PORT is not set; none for the mailer, which serves only its management port. */
export function defaultPort(service: ServiceName): number | undefined {
  const fromExample = envExample(service).get('PORT');
  return fromExample ? Number(fromExample) : AGREED_PORT[service];
}

/** The management port (/healthz, /readyz, /metrics) when MANAGEMENT_PORT is not set. */
export function managementPort(service: ServiceName): number {
  return Number(envExample(service).get('MANAGEMENT_PORT'));
}

/** `dist/src/x/y.js` (as run in the image, whose workdir is the service's package) → its source. */
export function sourceOf(service: ServiceName, distPath: string): string {
  const m = /^dist\/(src\/.+)\.js$/.exec(distPath);
  if (!m?.[1]) throw new Error(`${distPath} is not a compiled entry point under dist/src`);
  return join(repoRoot, 'services', service, `${m[1]}.ts`);
}

/** Commands of a service's admin CLI, from its usage text (two-word commands by their first word). */
export function cliCommands(service: ServiceName): Set<string> {
  const path = join(repoRoot, 'services', service, 'src', 'cli', 'cli.ts');
  if (!existsSync(path)) return new Set();
  const usage = /USAGE = `([^`]*)`/.exec(readFileSync(path, 'utf8'))?.[1] ?? '';
  return new Set([...usage.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1] ?? ''));
}

/** The mailer is being written while these files land; its source checks wait for its entry point. */
export const implemented = (service: ServiceName) => existsSync(join(repoRoot, 'services', service, 'src', 'main.ts'));

/** A 32-byte key as the services accept it (hex or base64): a real key must never be committed. */
export const looksLikeKey = (value: string) => /^[0-9a-fA-F]{64}$/.test(value) || (/^[A-Za-z0-9+/_-]{43}=?$/.test(value) && Buffer.from(value, 'base64').length === 32);

/**
 * A TRUST_PROXY value that names whom to trust, as Express's `trust proxy` takes it: a hop count,
 * or comma-separated IPv4/IPv6 addresses or CIDRs. `true` (trust every peer) is refused.
 */
export function isTrustedProxyList(value: string): boolean {
  if (/^\d+$/.test(value)) return true;
  const ipv4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}(\/(3[0-2]|[12]?\d))?$/;
  const ipv6 = /^[0-9a-fA-F:]*:[0-9a-fA-F:.]*(\/(12[0-8]|1[01]\d|[1-9]?\d))?$/;
  const entries = value.split(',').map((e) => e.trim());
  return entries.length > 0 && entries.every((e) => ipv4.test(e) || ipv6.test(e));
}
