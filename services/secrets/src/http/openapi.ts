import type { Config } from '../config.js';
import { PLANS } from '../accounts/plans.js';
import { GENERATE_DEFAULT_LENGTH, GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from '../secrets/generate-value.js';
import { RECENT_DEFAULT_LIMIT, RECENT_MAX_LIMIT } from '../secrets/metadata.js';
import { PASSPHRASE_MAX_LENGTH } from '../secrets/params.js';

/**
 * OpenAPI 3.1 description of /api/v1, served at /api/v1/openapi.json. test/openapi.test.ts
 * validates real responses against these schemas, so the document cannot drift from the code.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, description: string, headers?: object) => ({ description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } });
const error = (description: string) => json(ref('Error'), description);
const key = { type: 'string', pattern: '^[0-9a-z]{31}$' };
const unix = { type: 'integer', minimum: 0, description: 'Unix time, seconds (UTC)' };
const seconds = { type: 'integer', minimum: 0 };

const formBody = (schema: object) => ({
  required: false,
  description: 'Parameters may equally be sent in the query string, as JSON, urlencoded or multipart form fields.',
  content: {
    'application/json': { schema },
    'application/x-www-form-urlencoded': { schema },
    'multipart/form-data': { schema },
  },
});

export function openApiDocument(config: Pick<Config, 'BASE_URL' | 'TTL_MIN' | 'TTL_MAX' | 'TTL_DEFAULT'>) {
  const ttl = { type: 'integer', minimum: config.TTL_MIN, maximum: config.TTL_MAX, default: config.TTL_DEFAULT, description: 'Lifetime of the secret in seconds; out of range is a 400.' };
  const common = {
    ttl,
    passphrase: { type: 'string', maxLength: PASSPHRASE_MAX_LENGTH, description: 'Needed to read the secret; kept only as a bcrypt hash.' },
    recipient: { type: 'string', format: 'email', description: 'One address; gets the link, never the secret.' },
  };
  const planLimits = Object.values(PLANS)
    .map((p) => `${p.name} ${p.maxSecretLength}`)
    .join(', ');
  const scoped = (scope: string) => [{ basicAuth: [] }, { bearerAuth: [scope] }];
  /** The metadata key is the capability: no credentials, or credentials that hold the scope. */
  const byKey = (scope: string) => [{}, ...scoped(scope)];
  const keyParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  const authErrors = { '401': error('Missing or invalid credentials'), '403': error('The access token lacks the scope'), '429': error('Rate limited') };

  /** `showMetadata` at /private; `showMetadataAtMetadata`, `showMetadataAtReceipt` at the aliases. */
  const opId = (name: string, base: string) => (base === '/private' ? name : `${name}At${base[1]?.toUpperCase()}${base.slice(2)}`);
  const metadataOps = (base: string) => ({
    [`${base}/recent`]: {
      get: {
        operationId: opId('recentMetadata', base),
        summary: `Recent metadata of the caller, newest first (${RECENT_DEFAULT_LIMIT} per page by default, at most ${RECENT_MAX_LIMIT}); keys are null.`,
        security: scoped('secrets:read'),
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: RECENT_MAX_LIMIT, default: RECENT_DEFAULT_LIMIT } },
          { name: 'before', in: 'query', description: 'Cursor of the next page (from X-Next-Cursor or the Link header).', schema: { type: 'string' } },
        ],
        responses: {
          '200': json({ type: 'array', items: ref('RecentItem') }, 'List of metadata', {
            'X-Next-Cursor': { description: 'Present when there is a next page', schema: { type: 'string' } },
            Link: { description: 'rel="next" URL of the next page', schema: { type: 'string' } },
          }),
          '400': error('Bad limit or cursor'),
          ...authErrors,
        },
      },
    },
    [`${base}/{metadata_key}`]: {
      parameters: [keyParam('metadata_key', 'The metadata key returned at creation')],
      post: {
        operationId: opId('showMetadata', base),
        summary: 'Metadata of a secret; marks it `viewed` after the first call while unread. The metadata key is the credential; others are optional.',
        security: byKey('secrets:read'),
        responses: { '200': json(ref('Metadata'), 'Metadata'), '404': error('Unknown or expired metadata key'), ...authErrors },
      },
      get: {
        operationId: opId('peekMetadata', base),
        summary: 'Metadata of a secret, without side effects. The metadata key is the credential; others are optional.',
        security: byKey('secrets:read'),
        responses: { '200': json(ref('Metadata'), 'Metadata'), '404': error('Unknown or expired metadata key'), ...authErrors },
      },
    },
    [`${base}/{metadata_key}/burn`]: {
      parameters: [keyParam('metadata_key', 'The metadata key returned at creation')],
      post: {
        operationId: opId('burnSecret', base),
        summary: 'Destroys an unread secret. The metadata key is the credential; others are optional.',
        security: byKey('secrets:write'),
        responses: { '200': json(ref('BurnResult'), 'The metadata, state and status burned'), '404': error('Unknown, read, burned or expired'), ...authErrors },
      },
    },
  });

  const shareOp = (operationId: string) => ({
    post: {
      operationId,
      summary: `Store a secret. Maximum length by plan (characters): ${planLimits}.`,
      security: scoped('secrets:write'),
      parameters: [
        { name: 'secret', in: 'query', schema: { type: 'string' } },
        { name: 'ttl', in: 'query', schema: ttl },
        { name: 'passphrase', in: 'query', schema: common.passphrase },
        { name: 'recipient', in: 'query', schema: common.recipient },
      ],
      requestBody: formBody({ type: 'object', properties: { secret: { type: 'string', minLength: 1 }, ...common } }),
      responses: {
        '200': json(ref('Secret'), 'The secret object (spec 2.2)'),
        '400': error('Bad input (missing secret, ttl out of range, bad recipient...)'),
        '413': error('The secret is longer than the plan allows'),
        ...authErrors,
      },
    },
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Hush secrets API',
      version: '1.0.0',
      description:
        'One-time secrets, compatible with Onetime Secret API v1. Errors are `{ "message", "code" }`; unknown, read, burned and expired keys are one indistinguishable 404.',
    },
    servers: [{ url: `${config.BASE_URL}/api/v1` }],
    paths: {
      '/status': {
        get: { operationId: 'status', security: [], responses: { '200': json(ref('Status'), 'Service status') } },
      },
      '/share': shareOp('share'),
      '/create': shareOp('create'),
      '/generate': {
        post: {
          operationId: 'generate',
          summary: `Generate a ${GENERATE_DEFAULT_LENGTH}-character secret (length ${GENERATE_MIN_LENGTH} to ${GENERATE_MAX_LENGTH}), returned once.`,
          security: scoped('secrets:write'),
          requestBody: formBody({ type: 'object', properties: { length: { type: 'integer', minimum: GENERATE_MIN_LENGTH, maximum: GENERATE_MAX_LENGTH }, ...common } }),
          responses: { '200': json(ref('GeneratedSecret'), 'The secret object with its value'), '400': error('Bad input'), ...authErrors },
        },
      },
      '/secret/{secret_key}': {
        parameters: [keyParam('secret_key', 'The secret key')],
        post: {
          operationId: 'reveal',
          summary: 'Read a secret, once. No credentials needed.',
          security: [],
          requestBody: formBody({ type: 'object', properties: { passphrase: common.passphrase } }),
          responses: {
            '200': json(ref('RevealResult'), 'The value (spec 2.3)'),
            '401': error('passphrase_required or passphrase_incorrect (the attempt that reaches the limit destroys the secret)'),
            '404': error('Unknown, read, burned or expired'),
            '429': error('Rate limited'),
          },
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
          requestBody: formBody({ type: 'object', properties: { label: { type: 'string' } } }),
          responses: { '201': json(ref('MintedToken'), 'The new token'), ...authErrors },
        },
      },
      '/account/api-tokens': {
        get: {
          operationId: 'listApiTokens',
          security: [{ bearerAuth: ['secrets:read', 'secrets:write'] }],
          responses: { '200': json({ type: 'array', items: ref('TokenInfo') }, 'Tokens of the account (never the tokens themselves)'), ...authErrors },
        },
      },
      '/account/api-token/{id}': {
        parameters: [keyParam('id', 'Token id')],
        delete: {
          operationId: 'revokeApiToken',
          security: [{ bearerAuth: ['secrets:read', 'secrets:write'] }],
          responses: {
            '200': json({ type: 'object', required: ['id', 'revoked'], additionalProperties: false, properties: { id: { type: 'string' }, revoked: { const: true } } }, 'Revoked'),
            '404': error('No such active token of this account'),
            ...authErrors,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'username (custid) : API token' },
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from identity (scopes secrets:read, secrets:write)' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['message', 'code'],
          additionalProperties: false,
          properties: { message: { type: 'string' }, code: { type: 'string', pattern: '^[a-z_]+$' } },
        },
        Status: { type: 'object', required: ['status', 'locale'], properties: { status: { const: 'nominal' }, locale: { type: 'string' } } },
        Secret: { allOf: [ref('SecretFields')], unevaluatedProperties: false },
        SecretFields: {
          type: 'object',
          required: ['custid', 'metadata_key', 'secret_key', 'ttl', 'metadata_ttl', 'secret_ttl', 'created', 'updated', 'passphrase_required'],
          properties: {
            custid: { type: 'string' },
            metadata_key: key,
            secret_key: key,
            ttl: { ...seconds, description: 'The requested TTL' },
            metadata_ttl: { ...seconds, description: 'Seconds the metadata has left (2 x ttl at creation)' },
            secret_ttl: { ...seconds, description: 'Seconds the secret has left' },
            recipient: { type: 'string', description: 'Obfuscated address, present only when one was given', examples: ['fo*****@e*****.com'] },
            created: unix,
            updated: unix,
            passphrase_required: { type: 'boolean' },
          },
        },
        GeneratedSecret: {
          allOf: [ref('SecretFields')],
          required: ['value'],
          // `allOf` + additionalProperties do not mix in JSON Schema; unevaluatedProperties does.
          unevaluatedProperties: false,
          properties: { value: { type: 'string', minLength: GENERATE_MIN_LENGTH, maxLength: GENERATE_MAX_LENGTH } },
        },
        RevealResult: {
          type: 'object',
          required: ['secret_key', 'value'],
          additionalProperties: false,
          properties: { secret_key: key, value: { type: 'string' } },
        },
        Metadata: { allOf: [ref('MetadataFields')], unevaluatedProperties: false },
        MetadataFields: {
          type: 'object',
          required: ['custid', 'metadata_key', 'secret_key', 'ttl', 'metadata_ttl', 'secret_ttl', 'created', 'updated', 'received', 'passphrase_required', 'state'],
          properties: {
            custid: { type: 'string' },
            metadata_key: { anyOf: [key, { type: 'null' }] },
            secret_key: { anyOf: [key, { type: 'null' }], description: 'The secret key while unread; null once read, burned or expired' },
            ttl: seconds,
            metadata_ttl: seconds,
            secret_ttl: { ...seconds, description: '0 once the secret is gone' },
            recipient: { type: 'string' },
            created: unix,
            updated: unix,
            received: { ...unix, description: 'When the secret was read; 0 until then' },
            passphrase_required: { type: 'boolean' },
            state: { enum: ['new', 'viewed', 'received', 'burned', 'expired'] },
            delivery_status: { enum: ['queued', 'sent', 'failed'], description: 'With a recipient: whether the e-mail with the link left' },
            delivery_updated: { ...unix, description: 'When delivery_status last changed' },
            delivery_reason: { type: 'string', description: 'Why delivery failed (never the address)' },
          },
        },
        BurnResult: {
          allOf: [ref('MetadataFields')],
          required: ['status'],
          unevaluatedProperties: false,
          properties: { status: { const: 'burned' }, state: { const: 'burned' }, secret_key: { type: 'null' } },
        },
        RecentItem: {
          allOf: [ref('MetadataFields')],
          required: ['metadata_shortkey'],
          unevaluatedProperties: false,
          properties: { metadata_key: { type: 'null' }, secret_key: { type: 'null' }, metadata_shortkey: { type: 'string', pattern: '^[0-9a-z]{6}$' } },
        },
        MintedToken: {
          type: 'object',
          required: ['id', 'custid', 'label', 'api_token', 'created'],
          additionalProperties: false,
          properties: { id: { type: 'string', format: 'uuid' }, custid: { type: 'string' }, label: { type: ['string', 'null'] }, api_token: { type: 'string' }, created: unix },
        },
        TokenInfo: {
          type: 'object',
          required: ['id', 'label', 'created', 'revoked'],
          additionalProperties: false,
          properties: { id: { type: 'string', format: 'uuid' }, label: { type: ['string', 'null'] }, created: unix, revoked: { type: 'boolean' } },
        },
      },
    },
  };
}
