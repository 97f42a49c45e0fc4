import { secretRequestResponse } from '../secrets/requests.presenter.js';
import { z } from 'zod';
import type { Config } from '../config.js';
import { mintedTokenResponse, tokenInfoResponse } from '../accounts/api-tokens.schemas.js';
import type { Credentials } from '../auth/authenticate.js';
import { apiDialect } from './dialect.js';
import { burnResponse, generatedSecretResponse, metadataResponse, recentItem, revealResponse, secretResponse } from '../secrets/presenter.js';
import { otsBurnResponse, otsErrorResponse, otsGeneratedSecretResponse, otsMetadataResponse, otsRecentItem, otsSecretResponse } from '../secrets/presenter.onetimesecret.js';
import { zkCreatedFields } from '../zk/index.js';
import { endpointsOf, type ApiRoute, type ResponseSchema, type SchemaName } from './api-route.js';
import { API_MOUNT, API_ROUTES } from './api.routes.js';

/**
 * OpenAPI 3.1 description of the API, served by its `openapi` route, one per API dialect
 * (API_DIALECT: the document describes the dialect the deployment speaks). Its paths and
 * operations are the route table's (api.routes.ts); every request and response schema in it is
 * generated (zod's JSON Schema output) from the schemas the routes parse with and the presenters'
 * response schemas, so the document cannot drift from the code; test/openapi.test.ts also
 * validates real responses against it.
 */

/** The body of every error (http/error-handler.ts). */
export const errorResponse = z.strictObject({ message: z.string(), code: z.string().regex(/^[a-z_]+$/) });
/** GET /status and /authcheck. */
export const statusResponse = z.object({ status: z.literal('nominal'), locale: z.string() });

type JsonSchema = Record<string, unknown>;

/**
 * Named response schemas, generated together so that a reference to one of them (the items of a
 * list) becomes a `$ref` into components. Names starting with `~` are inline, not components.
 */
function responseSchemas(named: Record<string, z.ZodType>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', uri: (id) => `#/components/schemas/${id}` });
  // Each comes as its own document ($schema, $id); inside this one they are plain subschemas.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _s, $id: _i, ...schema }]) => [id, schema]));
}

/**
 * What the wire carries (the input side: the text a form sends becomes the integer it is parsed
 * to). No `required`: any parameter may come in the query string instead of the body.
 */
function requestSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _s, required: _r, ...json } = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  return json;
}

const queryParameters = (request: JsonSchema) =>
  Object.entries((request['properties'] ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({ name, in: 'query', schema }));

const formBody = (schema: JsonSchema) => ({
  required: false,
  description: 'Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields.',
  content: {
    'application/json': { schema },
    'application/x-www-form-urlencoded': { schema },
    'multipart/form-data': { schema },
  },
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** Bytes, as a stream (a zero-knowledge file's records). */
const BINARY = { type: 'string', contentMediaType: 'application/octet-stream' };
const json = (schema: object, description: string, headers?: object) => ({ description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } });
const headers = (described: Readonly<Record<string, string>>) =>
  Object.fromEntries(Object.entries(described).map(([name, description]) => [name, { description, schema: { type: 'string' } }]));
const error = (description: string) => json(ref('Error'), description);
/** Onetime Secret answers every refusal with 404 (the intended status in X-OTS-Intended-Status). */
const OTS_REFUSAL = {
  '404': json(
    ref('Error'),
    'Any refusal. "Unknown secret" (with secret_key) for unknown, read, burned or expired keys and wrong passphrases; "Not authorized" for credentials; else what went wrong. The header X-OTS-Intended-Status carries the status the spec dialect would use.',
    { 'X-OTS-Intended-Status': { schema: { type: 'string' } } },
  ),
};

/** Response schemas of each dialect (secrets/presenter.ts, secrets/presenter.onetimesecret.ts). */
const DIALECT_SCHEMAS = {
  spec: {
    Error: errorResponse,
    Secret: secretResponse,
    GeneratedSecret: generatedSecretResponse,
    Metadata: metadataResponse,
    BurnResult: burnResponse,
    RecentItem: recentItem,
    ZkSecret: secretResponse.extend(zkCreatedFields),
  },
  onetimesecret: {
    Error: otsErrorResponse,
    Secret: otsSecretResponse,
    GeneratedSecret: otsGeneratedSecretResponse,
    Metadata: otsMetadataResponse,
    BurnResult: otsBurnResponse,
    RecentItem: otsRecentItem,
    ZkSecret: otsSecretResponse.extend(zkCreatedFields),
  },
} as const;

export function openApiDocument(
  config: Pick<Config, 'BASE_URL' | 'TTL_MIN' | 'TTL_MAX' | 'TTL_DEFAULT' | 'API_DIALECT' | 'anonymousShares'>,
  routes: readonly ApiRoute[] = API_ROUTES,
) {
  const ots = config.API_DIALECT === 'onetimesecret';
  const dialectSchemas = DIALECT_SCHEMAS[config.API_DIALECT];
  const ttl = { min: config.TTL_MIN, max: config.TTL_MAX, fallback: config.TTL_DEFAULT };
  const dialect = apiDialect(config.API_DIALECT, ttl);
  const named: Record<SchemaName, z.ZodType> = {
    ...dialectSchemas,
    Status: statusResponse,
    RevealResult: revealResponse,
    MintedToken: mintedTokenResponse,
    TokenInfo: tokenInfoResponse,
    SecretRequest: secretRequestResponse,
  };
  // Lists and one-off shapes are generated with the components, as inline schemas named `~<operation>`.
  const inlines: Record<string, z.ZodType> = {};
  for (const route of routes) {
    const schema = route.ok.stream ? undefined : inlineOf(route.ok.schema, named);
    if (schema) inlines[`~${route.operationId}`] = schema;
  }
  const schemas = responseSchemas({ ...named, ...inlines });
  const components = Object.fromEntries(Object.entries(schemas).filter(([id]) => !id.startsWith('~')));
  const responseSchema = (route: ApiRoute) => (typeof route.ok.schema === 'string' ? ref(route.ok.schema) : (schemas[`~${route.operationId}`] ?? {}));

  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, path, operationId, route } of endpointsOf(routes)) {
    const params = route.params ?? {};
    const documented = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => `{${params[name]?.name ?? name}}`);
    const item = (paths[documented] ??= {});
    if (Object.keys(params).length > 0)
      item['parameters'] = Object.values(params).map(({ name, description }) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } }));
    const parser = route.input?.(dialect.inputs, dialect, ttl);
    const request = parser ? requestSchema(parser.schema) : undefined;
    const answer = route.ok.stream
      ? { description: route.ok.description, content: { [route.ok.stream]: { schema: BINARY } } }
      : json(responseSchema(route), route.ok.description, route.ok.headers && headers(route.ok.headers));
    const ok = { [String(route.ok.status ?? 200)]: answer };
    const refusals = ots ? OTS_REFUSAL : Object.fromEntries(Object.entries({ ...refusalsOf(route), ...route.errors }).map(([status, text]) => [status, error(text)]));
    item[method] = {
      operationId,
      summary: route.summary,
      security: securityOf(route.credentials, config.anonymousShares.enabled),
      ...(request && method === 'get' ? { parameters: queryParameters(request) } : {}),
      ...(request && method !== 'get' ? { requestBody: formBody(request) } : {}),
      ...(route.rawBody ? { requestBody: { required: true, description: route.rawBody.description, content: { [route.rawBody.contentType]: { schema: BINARY } } } } : {}),
      responses: { ...ok, ...refusals },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Hush secrets API',
      version: '1.0.0',
      description: ots
        ? 'One-time secrets, in Onetime Secret API v1\'s own shapes (API_DIALECT=onetimesecret). Every refusal is a 404 `{ "message" }`.'
        : 'One-time secrets, compatible with Onetime Secret API v1. Errors are `{ "message", "code" }`; unknown, read, burned and expired keys are one indistinguishable 404.',
    },
    servers: [{ url: `${config.BASE_URL}${API_MOUNT}` }],
    paths,
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'username (custid) : API token' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from identity (scopes secrets:read, secrets:write)' },
      },
      schemas: components,
    },
  };
}

function inlineOf(schema: ResponseSchema, named: Record<SchemaName, z.ZodType>): z.ZodType | undefined {
  if (typeof schema === 'string') return undefined;
  return 'listOf' in schema ? z.array(named[schema.listOf]) : schema.inline;
}

/** The refusals a route's credentials and rate limit bring (the spec dialect's statuses). */
function refusalsOf(route: ApiRoute): Record<string, string> {
  const { credentials } = route;
  if (credentials.accept === 'public') return route.rateLimit === 'none' ? {} : { '429': 'Rate limited' };
  return {
    '401': 'Missing or invalid credentials',
    ...(credentials.scopes.length > 0 ? { '403': 'The access token lacks the scope' } : {}),
    '429': route.rateLimit === 'none' ? 'Too many failed authentications from this address' : 'Rate limited, or too many failed authentications from this address',
  };
}

/** OpenAPI security requirements: `{}` is "no credentials"; Basic API tokens hold both scopes. */
function securityOf(credentials: Credentials, anonymousShares: boolean): object[] {
  if (credentials.accept === 'public') return [];
  const bearer = { bearerAuth: [...credentials.scopes] };
  const accounts = credentials.accept === 'required' && credentials.userToken ? [bearer] : [{ basicAuth: [] }, bearer];
  const nobody = credentials.accept === 'optional' || (credentials.accept === 'anonymous' && anonymousShares);
  return nobody ? [{}, ...accounts] : accounts;
}
