import { SECRETS_API_MOUNT } from '@hush/contracts';
import { z } from 'zod';
import { listApiTokens, mintApiToken, revokeApiToken } from '../accounts/accounts.js';
import { mintTokenInput, revokedTokenResponse } from '../accounts/api-tokens.schemas.js';
import { PLANS } from '../accounts/plans.js';
import { principalOf } from '../auth/authenticate.js';
import { SCOPES } from '../auth/principal.js';
import { UnknownTokenError } from '../errors.js';
import { GENERATE_DEFAULT_LENGTH, GENERATE_MAX_LENGTH, GENERATE_MIN_LENGTH } from '../secrets/generate-value.js';
import { burnSecret, recentMetadata, showMetadata } from '../secrets/metadata.js';
import { RECENT_DEFAULT_LIMIT, RECENT_MAX_LIMIT, revealInput } from './secrets-params.js';
import { presentReveal } from '../secrets/presenter.js';
import { revealSecret } from '../secrets/reveal.js';
import { generateSecret, shareSecret } from '../secrets/share.js';
import { answerRequest, cancelRequest, createRequest, listRequests } from '../secrets/requests.js';
import { answeredRequestResponse, presentRequest } from '../secrets/requests.presenter.js';
import { capabilityTemplates, defineRoute, readerOf, type ApiRoute } from './api-route.js';
import { ZK_ROUTES } from './zk.routes.js';

/**
 * The secrets API, every route declared once (see api-route.ts for what each field means). The
 * Express registration, the fast path's matching (fast-api.ts), the OpenAPI document (openapi.ts)
 * and the log's path templates (request-log.ts) are all derived from this table; no other source
 * file names an API path but zk.routes.ts, the zero-knowledge routes (docs/zero-knowledge.md), which it includes.
 *
 * The six operations of docs/api.md, plus Onetime Secret v1's aliases (`/create`, `/metadata/...`,
 * the current `/receipt/...`, POST for recent) and its `/status` and `/authcheck`, so its existing
 * clients work unchanged; the account routes where a person mints API tokens; the document itself.
 * Routes are matched in this order (`/private/recent` before `/private/:key`).
 */

/** Where the API is mounted (the contract's: its clients call it there). */
export const API_MOUNT = SECRETS_API_MOUNT;

const NOMINAL = Object.freeze({ status: 'nominal', locale: 'en' });
const METADATA_KEY = { key: { name: 'metadata_key', description: 'The metadata key returned at creation', subject: true } } as const;
const METADATA_ALIASES = (suffix: string) => [`/metadata${suffix}`, `/receipt${suffix}`];
const planLimits = Object.values(PLANS)
  .map((p) => `${p.name} ${p.maxSecretLength}`)
  .join(', ');

/** The routes that hash or check a passphrase answer this when the bcrypt pool is full (PASSPHRASE_QUEUE). */
const PASSPHRASES_BUSY = 'Too many passphrases waiting for bcrypt; nothing was done (no attempt spent): retry after Retry-After seconds';

const share = defineRoute({
  operationId: 'share',
  summary: `Store a secret. Maximum length by plan (characters): ${planLimits}.`,
  methods: ['post'],
  path: '/share',
  aliases: ['/create'],
  // An account with secrets:write, or (ANONYMOUS_SHARES) nobody, limited per IP.
  credentials: { accept: 'anonymous', scopes: [SCOPES.write] },
  rateLimit: 'account',
  input: (inputs) => inputs.share,
  ok: { schema: 'Secret', description: 'The secret object' },
  errors: { '400': 'Bad input (missing secret, ttl out of range, bad recipient...)', '413': 'The secret is longer than the plan allows', '503': PASSPHRASES_BUSY },
  handle: async ({ secrets, dialect }, input, _req, res) => dialect.created(await shareSecret(secrets, principalOf(res), input)),
});

const generate = defineRoute({
  operationId: 'generate',
  summary: `Generate a ${GENERATE_DEFAULT_LENGTH}-character secret (length ${GENERATE_MIN_LENGTH} to ${GENERATE_MAX_LENGTH}), returned once.`,
  methods: ['post'],
  path: '/generate',
  credentials: { accept: 'anonymous', scopes: [SCOPES.write] },
  rateLimit: 'account',
  input: (inputs) => inputs.generate,
  ok: { schema: 'GeneratedSecret', description: 'The secret object with its value' },
  errors: { '400': 'Bad input', '503': PASSPHRASES_BUSY },
  handle: async ({ secrets, dialect }, input, _req, res) => dialect.created(await generateSecret(secrets, principalOf(res), input, { markViewed: dialect.generateMarksViewed })),
});

const reveal = defineRoute({
  operationId: 'reveal',
  summary: 'Read a secret, once. No credentials needed.',
  methods: ['post'],
  path: '/secret/:key',
  params: { key: { name: 'secret_key', description: 'The secret key', subject: true } },
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'ip',
  input: (inputs) => inputs.reveal,
  ok: { schema: 'RevealResult', description: 'The value' },
  errors: {
    '401': 'passphrase_required or passphrase_incorrect (the attempt that reaches the limit destroys the secret); wrong credentials',
    '403':
      'secret_for_another_account: a requested secret, and the credentials are not its owner’s; secret_for_recipient: a recipient-only secret, and the credentials are not a user token with its recipient’s verified address (nothing is consumed)',
    '404': 'Unknown, read, burned or expired',
    '503': PASSPHRASES_BUSY,
  },
  // A secret that answered a request is read only with its owner's credentials, a recipient-only one with a
  // user token whose verified address is the recipient's (403 for anyone else; it stays).
  handle: async ({ secrets }, input, req, res) => presentReveal(await revealSecret(secrets, String(req.params['key']), input, readerOf(principalOf(res)))),
});

const recent = defineRoute({
  operationId: 'recentMetadata',
  summary: `Recent metadata of the caller, newest first (${RECENT_DEFAULT_LIMIT} per page by default, at most ${RECENT_MAX_LIMIT}); keys are null.`,
  methods: ['get', 'post'],
  path: '/private/recent',
  aliases: METADATA_ALIASES('/recent'),
  credentials: { accept: 'required', scopes: [SCOPES.read] },
  rateLimit: 'account',
  input: (inputs) => inputs.recent,
  ok: {
    schema: { listOf: 'RecentItem' },
    description: 'List of metadata',
    headers: { 'X-Next-Cursor': 'Present when there is a next page', Link: 'rel="next" URL of the next page' },
  },
  errors: { '400': 'Bad limit or cursor' },
  async handle({ secrets, dialect }, input, req, res) {
    const { items, next } = await recentMetadata(secrets, principalOf(res), input);
    if (next) {
      const url = new URL(req.originalUrl, 'http://x');
      url.searchParams.set('before', next);
      res.set({ 'X-Next-Cursor': next, Link: `<${url.pathname}${url.search}>; rel="next"` });
    }
    return items.map((item) => dialect.recentItem(item));
  },
});

// Metadata and burn: the metadata key in the path is the capability (as in Onetime Secret, whose
// clients call them without credentials). Credentials, when sent, must be valid and hold the scope.
const metadata = defineRoute({
  operationId: 'showMetadata',
  summary:
    'Metadata of a secret; marks it `viewed` after the first call while unread (GET and POST alike, as Onetime Secret does). The metadata key is the credential; others are optional.',
  methods: ['post', 'get'],
  path: '/private/:key',
  aliases: METADATA_ALIASES('/:key'),
  params: METADATA_KEY,
  credentials: { accept: 'optional', scopes: [SCOPES.read] },
  rateLimit: 'accountOrIp',
  ok: { schema: 'Metadata', description: 'Metadata' },
  errors: { '404': 'Unknown or expired metadata key' },
  handle: async ({ secrets, dialect }, _input, req) => dialect.metadata(await showMetadata(secrets, String(req.params['key']), true)),
});

const burn = defineRoute({
  operationId: 'burnSecret',
  summary: 'Destroys an unread secret. The metadata key is the credential; others are optional.',
  methods: ['post'],
  path: '/private/:key/burn',
  aliases: METADATA_ALIASES('/:key/burn'),
  params: METADATA_KEY,
  credentials: { accept: 'optional', scopes: [SCOPES.write] },
  rateLimit: 'accountOrIp',
  // Onetime Secret (current) asks for the secret's passphrase to burn it.
  input: (_inputs, dialect) => (dialect.burnChecksPassphrase ? revealInput : undefined),
  ok: { schema: 'BurnResult', description: 'The burned metadata' },
  errors: { '404': 'Unknown, read, burned or expired', '503': PASSPHRASES_BUSY },
  handle: async ({ secrets, dialect }, input: { passphrase?: string | undefined } | undefined, req) =>
    dialect.burn(await burnSecret(secrets, String(req.params['key']), { checkPassphrase: dialect.burnChecksPassphrase, passphrase: input?.passphrase })),
});

const status = defineRoute({
  operationId: 'status',
  summary: 'Service status. Credentials are optional; sent ones must be valid.',
  methods: ['get'],
  path: '/status',
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'none',
  ok: { schema: 'Status', description: 'Service status' },
  handle: () => NOMINAL,
});

const authcheck = defineRoute({
  operationId: 'authcheck',
  summary: 'Checks the credentials: 200 when they are valid.',
  methods: ['get'],
  path: '/authcheck',
  credentials: { accept: 'required', scopes: [] },
  rateLimit: 'none',
  ok: { schema: 'Status', description: 'The credentials are valid' },
  handle: () => NOMINAL,
});

// API tokens for people: a user signs in through identity (authorization code flow), and with
// that access token (both scopes) mints, lists and revokes the Basic-auth tokens of their account.
const USER = { accept: 'required', scopes: [SCOPES.read, SCOPES.write], userToken: true } as const;

const mintToken = defineRoute({
  operationId: 'mintApiToken',
  summary: "Mint an API token for the caller's account (a user access token with both scopes only). The token is shown once.",
  methods: ['post'],
  path: '/account/api-token',
  credentials: USER,
  rateLimit: 'account',
  input: () => mintTokenInput,
  ok: { status: 201, schema: 'MintedToken', description: 'The new token' },
  handle: ({ accounts }, { label }, _req, res) => mintApiToken(accounts, principalOf(res).custid, label),
});

const listTokens = defineRoute({
  operationId: 'listApiTokens',
  summary: 'The API tokens of the caller’s account (never the tokens themselves).',
  methods: ['get'],
  path: '/account/api-tokens',
  credentials: USER,
  rateLimit: 'account',
  ok: { schema: { listOf: 'TokenInfo' }, description: 'Tokens of the account' },
  async handle({ accounts }, _input, _req, res) {
    const tokens = await listApiTokens(accounts, principalOf(res).custid);
    return tokens.map((t) => ({ id: t.id, label: t.label, created: Math.floor(t.createdAt.getTime() / 1000), revoked: t.revokedAt !== null }));
  },
});

const revokeToken = defineRoute({
  operationId: 'revokeApiToken',
  summary: 'Revokes one API token of the caller’s account.',
  methods: ['delete'],
  path: '/account/api-token/:id',
  params: { id: { name: 'id', description: 'Token id' } },
  credentials: USER,
  rateLimit: 'account',
  ok: { schema: { inline: revokedTokenResponse }, description: 'Revoked' },
  errors: { '404': 'No such active token of this account' },
  async handle({ accounts }, _input, req, res) {
    const id = String(req.params['id']);
    if (!(await revokeApiToken(accounts, id, principalOf(res).custid))) throw new UnknownTokenError();
    return { id, revoked: true };
  },
});

// Secret requests ("send me your secret"): an account makes a link; whoever opens it may send that
// account one secret, once, which only that account can then read (through reveal, with its credentials).
const createRequestRoute = defineRoute({
  operationId: 'createRequest',
  summary: 'Make a secret request: a link with which anyone can send the caller one secret, once. With recipient, the person asked gets the link by e-mail.',
  methods: ['post'],
  path: '/requests',
  credentials: { accept: 'required', scopes: [SCOPES.write] },
  rateLimit: 'account',
  input: (inputs) => inputs.createRequest,
  ok: { status: 201, schema: 'SecretRequest', description: 'The request, with its link' },
  errors: { '400': 'Bad input (label, ttl, secret_ttl, passphrase_policy, recipient)' },
  handle: async ({ secrets }, input, _req, res) => presentRequest(await createRequest(secrets, principalOf(res), input), secrets.settings.baseUrl),
});

const listRequestsRoute = defineRoute({
  operationId: 'listRequests',
  summary: 'The caller’s secret requests, newest first; closed ones are kept RECEIPT_RETENTION.',
  methods: ['get'],
  path: '/requests',
  credentials: { accept: 'required', scopes: [SCOPES.read] },
  rateLimit: 'account',
  ok: { schema: { listOf: 'SecretRequest' }, description: 'Requests of the account' },
  async handle({ secrets }, _input, _req, res) {
    return (await listRequests(secrets, principalOf(res))).map((view) => presentRequest(view, secrets.settings.baseUrl));
  },
});

const cancelRequestRoute = defineRoute({
  operationId: 'cancelRequest',
  summary: 'Closes one of the caller’s open requests: its link no longer takes a secret.',
  methods: ['delete'],
  path: '/requests/:id',
  params: { id: { name: 'id', description: 'Request id' } },
  credentials: { accept: 'required', scopes: [SCOPES.write] },
  rateLimit: 'account',
  ok: { schema: 'SecretRequest', description: 'The cancelled request' },
  errors: { '404': 'No such open request of this account' },
  handle: async ({ secrets }, _input, req, res) => presentRequest(await cancelRequest(secrets, principalOf(res), String(req.params['id'])), secrets.settings.baseUrl),
});

const answerRequestRoute = defineRoute({
  operationId: 'answerRequest',
  summary: 'Send the one secret a request asks for (as its page does). The request key is the credential; the link is then spent.',
  methods: ['post'],
  path: '/request/:key',
  params: { key: { name: 'request_key', description: 'The key of the request link', subject: true } },
  credentials: { accept: 'optional', scopes: [] },
  rateLimit: 'ip',
  input: (inputs) => inputs.answerRequest,
  ok: { status: 201, schema: { inline: answeredRequestResponse }, description: 'Stored for the requester, who alone can read it' },
  errors: {
    '400': 'Missing secret; a passphrase the request requires or refuses',
    '404': 'Unknown, answered, cancelled or expired request',
    '413': 'Longer than the requester’s plan allows',
    '503': PASSPHRASES_BUSY,
  },
  handle: async ({ secrets }, input, req) => ({ status: 'sent', ...(await answerRequest(secrets, String(req.params['key']), input)) }),
});

const openapi = defineRoute({
  operationId: 'openapi',
  summary: 'This document.',
  methods: ['get'],
  path: '/openapi.json',
  // The description of the API is public, whatever credentials come with the request.
  credentials: { accept: 'public' },
  rateLimit: 'none',
  readsBody: false,
  ok: { schema: { inline: z.looseObject({ openapi: z.string() }) }, description: 'The OpenAPI 3.1 document of this deployment' },
  handle: (ctx) => ctx.openapi,
});

export const API_ROUTES: readonly ApiRoute[] = [
  openapi,
  status,
  authcheck,
  share,
  generate,
  reveal,
  recent,
  metadata,
  burn,
  mintToken,
  listTokens,
  revokeToken,
  createRequestRoute,
  listRequestsRoute,
  cancelRequestRoute,
  answerRequestRoute,
  ...ZK_ROUTES,
];

/** The full path of an operation (its first path), for links to the API outside it (the tokens page's curl example). */
export function apiPathOf(operationId: string): string {
  const route = API_ROUTES.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no API operation ${operationId}`);
  return `${API_MOUNT}${route.path}`;
}

/** Paths with their capabilities (keys, token ids) replaced by the route's template, for logs. */
export const withoutCapabilities = capabilityTemplates(API_ROUTES);
