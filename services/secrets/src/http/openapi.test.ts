import { readFileSync } from 'node:fs';
import { readConfig } from '../config.js';
import { endpointsOf } from './api-route.js';
import { API_ROUTES } from './api.routes.js';
import { openApiDocument } from './openapi.js';
import { apiDialect } from './dialect.js';

type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, Record<string, unknown>> } }> };
  parameters?: unknown[];
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const config = (dialect: 'spec' | 'onetimesecret') => ({
  BASE_URL: 'http://localhost',
  TTL_MIN: 120,
  TTL_MAX: 3600,
  TTL_DEFAULT: 600,
  API_DIALECT: dialect,
  anonymousShares: { enabled: false, maxSecretLength: 1000, rateLimit: { max: 0, windowSeconds: 60 } },
});

describe('the OpenAPI document', () => {
  it('describes the request from the same schema, with the configured ttl bounds', () => {
    const doc = openApiDocument(config('spec')) as unknown as Document;
    const body = doc.paths['/share']!['post']!.requestBody!.content['application/json']!.schema as { properties: Record<string, Record<string, unknown>> };
    expect(body.properties['ttl']).toMatchObject({ type: 'integer', minimum: 120, maximum: 3600, default: 600 });
    expect(body.properties['passphrase']).toMatchObject({ type: 'string', maxLength: 1024 });
    expect(body.properties['recipient']).toMatchObject({ type: 'string', format: 'email' });
  });

  describe.each(['spec', 'onetimesecret'] as const)('API_DIALECT=%s', (name) => {
    const doc = openApiDocument(config(name)) as unknown as Document;
    const dialect = apiDialect(name, { min: 120, max: 3600, fallback: 600 });
    const endpoints = endpointsOf(API_ROUTES).map((e) => [e.method.toUpperCase(), e.path, e] as const);

    it.each(endpoints)('has %s %s, with its response schema and its input', (_method, path, { method, route, operationId }) => {
      const documented = path.replace(/:(\w+)/g, (_, p: string) => `{${route.params?.[p]?.name ?? p}}`);
      const operation = doc.paths[documented]?.[method];
      expect(operation?.operationId).toBe(operationId);
      const ok = operation?.responses[String(route.ok.status ?? 200)]?.content?.[route.ok.stream ?? 'application/json']?.schema;
      expect(ok).toBeDefined();
      const ref = ok?.['$ref'];
      if (typeof ref === 'string') expect(doc.components.schemas[ref.replace('#/components/schemas/', '')]).toBeDefined();
      else expect(Object.keys(ok ?? {}).length).toBeGreaterThan(0);
      const input = route.input?.(dialect.inputs, dialect, { min: 120, max: 3600, fallback: 600 });
      if (input && method === 'get') expect(operation?.parameters?.length).toBeGreaterThan(0);
      if (input && method !== 'get') expect(Object.keys(operation?.requestBody?.content['application/json']?.schema.properties ?? {})).not.toHaveLength(0);
      if (route.rawBody) expect(operation?.requestBody?.content[route.rawBody.contentType]).toBeDefined();
      if (!input && !route.rawBody) expect(operation?.requestBody).toBeUndefined();
    });

    it('has no path the table does not declare', () => {
      const declared = new Set(endpointsOf(API_ROUTES).map((e) => `${e.method} ${e.path.replace(/:(\w+)/g, (_, p: string) => `{${e.route.params?.[p]?.name ?? p}}`)}`));
      const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((k) => k !== 'parameters')
          .map((m) => `${m} ${path}`),
      );
      expect(new Set(documented)).toEqual(declared);
    });
  });
});

test('packages/contracts holds the document this service serves with its default settings (else: scripts/secrets-api-contract.mjs)', () => {
  const held: unknown = JSON.parse(readFileSync(new URL('../../../../packages/contracts/secrets-api.openapi.json', import.meta.url), 'utf8'));
  expect(openApiDocument(readConfig({ MASTER_KEY: '00'.repeat(32) }))).toEqual(held);
});
