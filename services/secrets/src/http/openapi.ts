import { z } from 'zod';
import type { Config } from '../config.js';
import { PLANS } from '../accounts/plans.js';
import { mintTokenInput, mintedTokenResponse, revokedTokenResponse, tokenInfoResponse } from '../accounts/api-tokens.schemas.js';
import { GENERATE_DEFAULT_LENGTH, GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from '../secrets/generate-value.js';
import { RECENT_DEFAULT_LIMIT, RECENT_MAX_LIMIT, secretsInputs } from '../secrets/params.js';
import { burnResponse, generatedSecretResponse, metadataResponse, recentItem, revealResponse, secretResponse } from '../secrets/presenter.js';
import { otsBurnResponse, otsErrorResponse, otsGeneratedSecretResponse, otsMetadataResponse, otsRecentItem, otsSecretResponse } from '../secrets/presenter.onetimesecret.js';

/**
 * OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json, one per API dialect
 * (API_DIALECT: the document describes the dialect the deployment speaks). Every request and response
 * schema in it is generated (zod's JSON Schema output) from the schemas the routes parse with and
 * the presenters' response schemas, so the document cannot drift from the code;
 * test/openapi.test.ts also validates real responses against it.
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
const json = (schema: object, description: string, headers?: object) => ({ description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } });
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
  },
  onetimesecret: {
    Error: otsErrorResponse,
    Secret: otsSecretResponse,
    GeneratedSecret: otsGeneratedSecretResponse,
    Metadata: otsMetadataResponse,
    BurnResult: otsBurnResponse,
    RecentItem: otsRecentItem,
  },
} as const;

export function openApiDocument(config: Pick<Config, 'BASE_URL' | 'TTL_MIN' | 'TTL_MAX' | 'TTL_DEFAULT' | 'API_DIALECT' | 'anonymousShares'>) {
  const ots = config.API_DIALECT === 'onetimesecret';
  const dialectSchemas = DIALECT_SCHEMAS[config.API_DIALECT];
  const inputs = secretsInputs({ min: config.TTL_MIN, max: config.TTL_MAX, fallback: config.TTL_DEFAULT }, config.API_DIALECT);
  const request = {
    share: requestSchema(inputs.share.schema),
    generate: requestSchema(inputs.generate.schema),
    reveal: requestSchema(inputs.reveal.schema),
    recent: requestSchema(inputs.recent.schema),
    mintToken: requestSchema(mintTokenInput.schema),
  };
  const schemas = responseSchemas({
    ...dialectSchemas,
    Status: statusResponse,
    RevealResult: revealResponse,
    MintedToken: mintedTokenResponse,
    TokenInfo: tokenInfoResponse,
    '~recent': z.array(dialectSchemas.RecentItem),
    '~tokens': z.array(tokenInfoResponse),
    '~revoked': revokedTokenResponse,
  });
  const inline = (id: string) => schemas[id] ?? {};
  /** The 200 (or 201) answer, and the refusals in the dialect's way. */
  const answers = (ok: Record<string, unknown>, refusals: Record<string, unknown>) => ({ ...ok, ...(ots ? OTS_REFUSAL : refusals) });
  const components = Object.fromEntries(Object.entries(schemas).filter(([id]) => !id.startsWith('~')));

  const planLimits = Object.values(PLANS)
    .map((p) => `${p.name} ${p.maxSecretLength}`)
    .join(', ');
  const scoped = (scope: string) => [{ basicAuth: [] }, { bearerAuth: [scope] }];
  /** Share and generate: an account, or nobody when ANONYMOUS_SHARES is on. */
  const creatorSecurity = config.anonymousShares.enabled ? [{}, ...scoped('secrets:write')] : scoped('secrets:write');
  /** The metadata key is the capability: no credentials, or credentials that hold the scope. */
  const byKey = (scope: string) => [{}, ...scoped(scope)];
  const keyParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  const authErrors = {
    '401': error('Missing or invalid credentials'),
    '403': error('The access token lacks the scope'),
    '429': error('Rate limited, or too many failed authentications from this address'),
  };

  /** `showMetadata` at /private; `showMetadataAtMetadata`, `showMetadataAtReceipt` at the aliases. */
  const opId = (name: string, base: string) => (base === '/private' ? name : `${name}At${base[1]?.toUpperCase()}${base.slice(2)}`);
  const metadataOps = (base: string) => ({
    [`${base}/recent`]: {
      get: {
        operationId: opId('recentMetadata', base),
        summary: `Recent metadata of the caller, newest first (${RECENT_DEFAULT_LIMIT} per page by default, at most ${RECENT_MAX_LIMIT}); keys are null.`,
        security: scoped('secrets:read'),
        parameters: queryParameters(request.recent),
        responses: answers(
          {
            '200': json(inline('~recent'), 'List of metadata', {
              'X-Next-Cursor': { description: 'Present when there is a next page', schema: { type: 'string' } },
              Link: { description: 'rel="next" URL of the next page', schema: { type: 'string' } },
            }),
          },
          { '400': error('Bad limit or cursor'), ...authErrors },
        ),
      },
    },
    [`${base}/{metadata_key}`]: {
      parameters: [keyParam('metadata_key', 'The metadata key returned at creation')],
      post: {
        operationId: opId('showMetadata', base),
        summary: 'Metadata of a secret; marks it `viewed` after the first call while unread. The metadata key is the credential; others are optional.',
        security: byKey('secrets:read'),
        responses: answers({ '200': json(ref('Metadata'), 'Metadata') }, { '404': error('Unknown or expired metadata key'), ...authErrors }),
      },
      get: {
        operationId: opId('peekMetadata', base),
        summary: 'Metadata of a secret, without side effects. The metadata key is the credential; others are optional.',
        security: byKey('secrets:read'),
        responses: answers({ '200': json(ref('Metadata'), 'Metadata') }, { '404': error('Unknown or expired metadata key'), ...authErrors }),
      },
    },
    [`${base}/{metadata_key}/burn`]: {
      parameters: [keyParam('metadata_key', 'The metadata key returned at creation')],
      post: {
        operationId: opId('burnSecret', base),
        summary: 'Destroys an unread secret. The metadata key is the credential; others are optional.',
        security: byKey('secrets:write'),
        responses: answers(
          { '200': json(ref('BurnResult'), ots ? '{ state: <the metadata, burned>, secret_shortkey }' : 'The metadata, state and status burned') },
          { '404': error('Unknown, read, burned or expired'), ...authErrors },
        ),
      },
    },
  });

  const shareOp = (operationId: string) => ({
    post: {
      operationId,
      summary: `Store a secret. Maximum length by plan (characters): ${planLimits}.`,
      security: creatorSecurity,
      parameters: queryParameters(request.share),
      requestBody: formBody(request.share),
      responses: answers(
        { '200': json(ref('Secret'), 'The secret object (spec 2.2)') },
        {
          '400': error('Bad input (missing secret, ttl out of range, bad recipient...)'),
          '413': error('The secret is longer than the plan allows'),
          ...authErrors,
        },
      ),
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Hush secrets API',
      version: '1.0.0',
      description: ots
        ? 'One-time secrets, in Onetime Secret API v1\'s own shapes (API_DIALECT=onetimesecret). Every refusal is a 404 `{ "message" }`.'
        : 'One-time secrets, compatible with Onetime Secret API v1. Errors are `{ "message", "code" }`; unknown, read, burned and expired keys are one indistinguishable 404.',
    },
    servers: [{ url: `${config.BASE_URL}/api/v1` }],
    paths: {
      '/status': {
        get: {
          operationId: 'status',
          summary: 'Service status. Credentials are optional; sent ones must be valid.',
          security: [{}, { basicAuth: [] }, { bearerAuth: [] }],
          responses: answers({ '200': json(ref('Status'), 'Service status') }, authErrors),
        },
      },
      '/authcheck': {
        get: {
          operationId: 'authcheck',
          summary: 'Checks the credentials: 200 when they are valid.',
          security: [{ basicAuth: [] }, { bearerAuth: [] }],
          responses: answers({ '200': json(ref('Status'), 'The credentials are valid') }, authErrors),
        },
      },
      '/share': shareOp('share'),
      '/create': shareOp('create'),
      '/generate': {
        post: {
          operationId: 'generate',
          summary: `Generate a ${GENERATE_DEFAULT_LENGTH}-character secret (length ${GENERATE_MIN_LENGTH} to ${GENERATE_MAX_LENGTH}), returned once.`,
          security: creatorSecurity,
          requestBody: formBody(request.generate),
          responses: answers({ '200': json(ref('GeneratedSecret'), 'The secret object with its value') }, { '400': error('Bad input'), ...authErrors }),
        },
      },
      '/secret/{secret_key}': {
        parameters: [keyParam('secret_key', 'The secret key')],
        post: {
          operationId: 'reveal',
          summary: 'Read a secret, once. No credentials needed.',
          security: [],
          requestBody: formBody(request.reveal),
          responses: answers(
            { '200': json(ref('RevealResult'), 'The value (spec 2.3)') },
            {
              '401': error('passphrase_required or passphrase_incorrect (the attempt that reaches the limit destroys the secret); wrong credentials'),
              '404': error('Unknown, read, burned or expired'),
              '429': error('Rate limited'),
            },
          ),
        },
      },
      ...metadataOps('/private'),
      ...metadataOps('/metadata'),
      ...metadataOps('/receipt'),
      '/account/api-token': {
        post: {
          operationId: 'mintApiToken',
          summary: "Mint an API token for the caller's account (a user access token with both scopes only). The token is shown once.",
          security: [{ bearerAuth: ['secrets:read', 'secrets:write'] }],
          requestBody: formBody(request.mintToken),
          responses: answers({ '201': json(ref('MintedToken'), 'The new token') }, authErrors),
        },
      },
      '/account/api-tokens': {
        get: {
          operationId: 'listApiTokens',
          security: [{ bearerAuth: ['secrets:read', 'secrets:write'] }],
          responses: answers({ '200': json(inline('~tokens'), 'Tokens of the account (never the tokens themselves)') }, authErrors),
        },
      },
      '/account/api-token/{id}': {
        parameters: [keyParam('id', 'Token id')],
        delete: {
          operationId: 'revokeApiToken',
          security: [{ bearerAuth: ['secrets:read', 'secrets:write'] }],
          responses: answers({ '200': json(inline('~revoked'), 'Revoked') }, { '404': error('No such active token of this account'), ...authErrors }),
        },
      },
    },
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'username (custid) : API token' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from identity (scopes secrets:read, secrets:write)' },
      },
      schemas: components,
    },
  };
}
