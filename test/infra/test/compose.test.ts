import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { interpolateAll } from './compose.interpolate.js';
import { BASE, composeText, loadCompose, MAIL_CATCHER, mergedRaw, readCompose, secretsOf, TLS_PROXY, VARIANTS, type ComposeService } from './compose.load.js';
import { cliCommands, defaultPort, implemented, managementPort, isReadBy, looksLikeKey, repoRoot, REQUIRED, SERVICES, sourceOf, type ServiceName } from './services.contract.js';

// docker-compose.yml and its overrides checked without a Docker engine: against the Compose
// specification, and against what the services really read, listen on and run.

const raw = readCompose(BASE);
const compose = loadCompose([BASE], {});

/** The workspace service whose image a compose service runs, from its Dockerfile's name. */
function serviceOf(svc: ComposeService): ServiceName | undefined {
  const m = /^infra\/docker\/([a-z]+)\.Dockerfile$/.exec(svc.build?.dockerfile ?? '');
  return SERVICES.find((s) => s === m?.[1]);
}
const appServices = Object.entries(raw.services).flatMap(([name, svc]) => {
  const service = serviceOf(svc);
  return service ? [{ name, service, svc, env: compose.services[name]?.environment ?? {} }] : [];
});
const oneShot = appServices.filter((a) => a.svc.restart === 'no');
const longRunning = appServices.filter((a) => a.svc.restart !== 'no');

/**
 * The command a compose service runs, unwrapped from the one-shots' retry loop
 * (`sh -c <loop> retry <command...>`, x-retry in docker-compose.yml).
 */
function commandOf(svc: ComposeService): string[] | undefined {
  if (svc.command === undefined) return undefined;
  const words = [svc.command].flat();
  return words[0] === 'sh' && words[1] === '-c' ? words.slice(4) : words;
}

/** CMD of a service's Dockerfile (exec form). */
function dockerfileCmd(service: ServiceName): string[] {
  const text = readFileSync(join(repoRoot, 'infra', 'docker', `${service}.Dockerfile`), 'utf8');
  const m = /^CMD (\[.*\])$/m.exec(text);
  return m?.[1] ? (JSON.parse(m[1]) as string[]) : [];
}
const hostOf = (url: unknown) => (typeof url === 'string' && url ? new URL(url).hostname : undefined);

// The interface spec's copy of the Compose schema, beside the checkout; a clone elsewhere (CI) uses
// the copy checked in here, which the first test keeps identical to the spec's whenever both exist.
const specSchemaPath = join(repoRoot, '..', 'shared', 'spec', 'compose-spec.schema.json');
const vendoredSchemaPath = join(repoRoot, 'test', 'infra', 'compose-spec.schema.json');
const composeSchemaPath = existsSync(specSchemaPath) ? specSchemaPath : vendoredSchemaPath;

describe('docker-compose.yml', () => {
  it("checks against the spec's Compose schema (the checked-in copy is identical to it)", () => {
    if (existsSync(specSchemaPath)) expect(readFileSync(vendoredSchemaPath, 'utf8')).toBe(readFileSync(specSchemaPath, 'utf8'));
    expect(existsSync(composeSchemaPath)).toBe(true);
  });

  it.each(VARIANTS.map((files) => [files.join(' + '), files] as const))('is valid against the Compose specification: %s', (_, files) => {
    const schema = JSON.parse(readFileSync(composeSchemaPath, 'utf8')) as Record<string, unknown>;
    delete schema['$schema']; // draft-07 under an https URL Ajv does not know by that name
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    for (const file of files) expect({ file, errors: validate(readCompose(file)) ? [] : validate.errors }).toEqual({ file, errors: [] });
    expect(validate(mergedRaw(files)) ? [] : validate.errors).toEqual([]);
  });

  it('runs identity, secrets and the mailer, each from its own Dockerfile, plus their one-shot migrations', () => {
    expect(new Set(longRunning.map((a) => a.service))).toEqual(new Set(SERVICES));
    expect(oneShot.map((a) => `${a.service}: ${String(commandOf(a.svc))}`).sort()).toEqual([
      'identity: node,dist/src/cli/main.js,bootstrap',
      'secrets: node,dist/src/cli/main.js,migrate',
    ]);
    for (const { svc } of longRunning) expect(svc.command).toBeUndefined();
    for (const name of ['postgres', 'redis']) expect(raw.services[name]).toBeDefined();
  });

  it('sets only variables the service reads (directly or as <NAME>_FILE)', () => {
    for (const files of VARIANTS) {
      const merged = mergedRaw(files);
      const unknown = appServices.flatMap(({ name, service }) =>
        Object.keys(merged.services[name]?.environment ?? {})
          .filter((v) => !isReadBy(service, v))
          .map((v) => `${name}: ${v}`),
      );
      expect({ files, unknown }).toEqual({ files, unknown: [] });
    }
  });

  it('gives every long-running service its required variables', () => {
    for (const { name, service, svc } of appServices) {
      for (const key of REQUIRED[service]) {
        const value = svc.environment?.[key] ?? svc.environment?.[`${key}_FILE`];
        expect({ name, key, set: value !== undefined && value !== null && value !== '' }).toEqual({ name, key, set: true });
      }
    }
    expect(composeText(BASE).split(/\s+/).filter(looksLikeKey)).toEqual([]);
  });

  it('gives identity and secrets different master keys, each also to its one-shot', () => {
    const keyFile = (name: string) => String(raw.services[name]?.environment?.['MASTER_KEY_FILE']);
    expect(keyFile('identity')).not.toEqual(keyFile('secrets'));
    for (const { name, service } of oneShot) expect(keyFile(name)).toEqual(keyFile(service));
  });

  it('gives the mail queue’s producers (secrets, identity) and the mailer one MAIL_SEALING_KEY, and no other service it', () => {
    const sealingKey = (name: string) => raw.services[name]?.environment?.['MAIL_SEALING_KEY_FILE'];
    const holders = ['secrets', 'identity', 'mailer'];
    expect(sealingKey('secrets')).toBe('/run/secrets/mail_sealing_key');
    for (const name of holders) expect({ name, key: sealingKey(name) }).toEqual({ name, key: sealingKey('secrets') });
    for (const [name, svc] of Object.entries(raw.services)) {
      if (!holders.includes(name)) expect({ name, mounts: secretsOf(svc).includes('mail_sealing_key') }).toEqual({ name, mounts: false });
    }
  });

  it('publishes only the public port of each service, and health-checks /healthz on its management port', () => {
    for (const { name, service, env, svc } of longRunning) {
      const port = env['PORT'] === undefined ? defaultPort(service) : Number(env['PORT']);
      expect({ name, port }).toEqual({ name, port: defaultPort(service) });
      const published = (svc.ports ?? []).map((mapping) => mapping.split(':').at(-1));
      expect({ name, published }).toEqual({ name, published: port === undefined ? [] : [String(port)] });
      const management = Number(env['MANAGEMENT_PORT'] ?? managementPort(service));
      const test = [compose.services[name]?.healthcheck?.test ?? []].flat().join(' ');
      expect(test).toContain(`127.0.0.1:${management}/healthz`);
    }
  });

  it('runs entry points and CLI commands that exist in the services', () => {
    for (const { name, service, svc } of appServices) {
      if (!implemented(service)) continue; // the mailer's source is still being written
      const command = commandOf(svc) ?? dockerfileCmd(service);
      expect(command[0]).toBe('node');
      // Node's own flags (the heap sizing of the start scripts) come before the entry point.
      const at = command.findIndex((word, i) => i > 0 && !word.startsWith('--'));
      const entry = command[at] ?? '';
      expect({ name, entry, exists: existsSync(sourceOf(service, entry)) }).toEqual({ name, entry, exists: true });
      const sub = command[at + 1];
      if (sub) expect({ name, sub, known: cliCommands(service).has(sub) }).toEqual({ name, sub, known: true });
    }
  });

  it('starts a service only once what it uses is healthy and its migrations have completed', () => {
    for (const files of VARIANTS) {
      const merged = mergedRaw(files);
      for (const [name, svc] of Object.entries(merged.services)) {
        for (const [dep, { condition }] of Object.entries(svc.depends_on ?? {})) {
          expect({ files, name, dep, defined: merged.services[dep] !== undefined }).toEqual({ files, name, dep, defined: true });
          if (condition === 'service_healthy')
            expect({ files, name, dep, healthcheck: merged.services[dep]?.healthcheck !== undefined }).toEqual({ files, name, dep, healthcheck: true });
        }
      }
    }
    for (const { name, env, svc } of appServices) {
      const deps = svc.depends_on ?? {};
      const uses = [env['DATABASE_URL_FILE'] ? 'postgres' : undefined, hostOf(env['REDIS_URL'])].filter((h): h is string => h !== undefined);
      for (const host of uses) expect({ name, host, condition: deps[host]?.condition }).toEqual({ name, host, condition: 'service_healthy' });
    }
    for (const { name, service } of longRunning.filter((a) => a.service !== 'mailer')) {
      const migrate = oneShot.find((o) => o.service === service);
      expect(migrate).toBeDefined();
      expect(raw.services[name]?.depends_on?.[migrate?.name ?? '']?.condition).toBe('service_completed_successfully');
    }
  });

  it('wires secrets to identity: public issuer, internal JWKS, the audience bootstrap registers, one queue prefix', () => {
    for (const overrides of [{}, { AUTH_URL: 'https://auth.example.com', BASE_URL: 'https://s.example.com', QUEUE_PREFIX: 'q1' }]) {
      const c = interpolateAll(raw, overrides);
      const env = (n: string) => c.services[n]?.environment ?? {};
      expect(env('secrets')['IDENTITY_ISSUER']).toBe(`${String(env('identity')['AUTH_URL'])}/auth/realms/public`);
      expect(env('identity-migrate')['SECRETS_API_AUDIENCE']).toBe(env('secrets')['API_AUDIENCE'] ?? `${String(env('secrets')['BASE_URL'])}/api/v1`);
      expect(env('secrets')['IDENTITY_JWKS_URL']).toBe(`http://identity:${defaultPort('identity')}/auth/realms/public/protocol/openid-connect/certs`);
      expect(env('secrets')['QUEUE_PREFIX']).toBe(env('mailer')['QUEUE_PREFIX']);
      expect(env('identity')['QUEUE_PREFIX']).toBe(env('mailer')['QUEUE_PREFIX']);
    }
  });

  it("wires the web app: bootstrap registers its client for secrets' BASE_URL with the secret secrets signs in with, reached inside the network", () => {
    for (const overrides of [{}, { AUTH_URL: 'https://auth.example.com', BASE_URL: 'https://s.example.com' }]) {
      const c = interpolateAll(raw, overrides);
      const env = (n: string) => c.services[n]?.environment ?? {};
      expect(env('identity-migrate')['SECRETS_BASE_URL']).toBe(env('secrets')['BASE_URL']);
      expect(env('identity-migrate')['SECRETS_WEB_CLIENT_SECRET_FILE']).toBe(env('secrets')['WEB_CLIENT_SECRET_FILE']);
      expect(env('secrets')['IDENTITY_INTERNAL_URL']).toBe(`http://identity:${defaultPort('identity')}`);
    }
  });

  it('wires credential handover: identity reaches secrets inside the network, with the client secret bootstrap registers, and itself at its own port', () => {
    const env = (n: string) => compose.services[n]?.environment ?? {};
    expect(env('identity')['SECRETS_URL']).toBe(`http://secrets:${defaultPort('secrets')}`);
    expect(env('identity')['HANDOVER_CLIENT_SECRET_FILE']).toBe('/run/secrets/handover_client_secret');
    expect(env('identity-migrate')['HANDOVER_CLIENT_SECRET_FILE']).toBe(env('identity')['HANDOVER_CLIENT_SECRET_FILE']);
    expect(env('identity')['INTERNAL_URL']).toBe(`http://127.0.0.1:${defaultPort('identity')}`);
    expect(raw.services['identity']?.depends_on?.['secrets']).toBeUndefined();
  });

  it('documents every variable it reads from .env in the root .env.example, the required ones without a value', () => {
    const example = readFileSync(join(repoRoot, '.env.example'), 'utf8');
    for (const file of [BASE, MAIL_CATCHER, TLS_PROXY]) {
      const text = composeText(file);
      const used = new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1] ?? ''));
      for (const name of used) {
        expect({ file, name, documented: new RegExp(`^#? ?${name}=`, 'm').test(example) }).toEqual({ file, name, documented: true });
      }
    }
  });
});
