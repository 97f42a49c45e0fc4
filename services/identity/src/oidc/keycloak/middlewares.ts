import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { renderError } from '../error-page.js';
import type { ProviderDeps } from '../provider-deps.js';
import { LEGACY_PAR_PATH, ROUTES } from '../routes.js';
import { clientAuthLimiter } from './client-auth-limiter.js';
import { clientCredentialsRefresh } from './client-credentials-refresh.js';
import { credentialedCors } from './cors.js';
import { deviceFormOrigin } from './device-form-origin.js';
import { hintedLogoutConfirm } from './hinted-logout.js';
import { jwtTokenEndpoints } from './jwt-token-endpoints.js';
import { parAlias } from './par-alias.js';
import { publicDocumentCaching } from './public-document-caching.js';
import { realmInfo } from './realm-info.js';
import { requestText } from './request-text.js';
import { resumeQuery } from './resume-query.js';
import { sessionIframe } from './session-iframe.js';
import { signInStarts } from './sign-in-starts.js';
import { tokenRequestForms } from './token-request-forms.js';
import { keycloakTokenResponses } from './token-responses.js';
import { answerUnavailable } from './unavailable.js';
import { keycloakUserinfo } from './userinfo.js';
import { accessTokenLiveness } from '../../revocations/index.js';

export type Middleware = (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>;

/** A protocol route of oidc-provider, by its name in `ROUTES`. */
export type RouteName = keyof typeof ROUTES;

export interface KeycloakMiddleware {
  name: string;
  /** Why it sits where it does: the first entry is outermost, the last runs next to oidc-provider's routes. */
  why: string;
  /**
   * The protocol routes it acts on, or `'all'`. A request to one of `ROUTES`' paths runs only the
   * middlewares declaring that route; a request to any other path (discovery, the realm root, the
   * iframe pages, a path oidc-provider does not serve) runs the whole list, so `[]` means "only
   * outside the protocol routes".
   */
  routes: 'all' | readonly RouteName[];
  create(provider: Provider, deps: ProviderDeps): Middleware;
}

/**
 * The middlewares around oidc-provider's routes, outermost first. A middleware that acts after
 * `next()` sees the answers of every one below it; one that acts before `next()` runs before every
 * one below it.
 */
export const KEYCLOAK_MIDDLEWARES: readonly KeycloakMiddleware[] = [
  {
    name: 'unavailable',
    why: 'outermost: rewrites the final answer of a request that failed on an unavailable database or Redis, whatever any middleware below did',
    routes: 'all',
    create: (provider, deps) => answerUnavailable(provider, deps.logger, renderError),
  },
  {
    name: 'cors',
    why: 'answers preflights before anything else runs, and decides the CORS headers of every answer below it, including those the middlewares below give themselves',
    routes: ['token', 'userinfo', 'end_session', 'introspection', 'revocation', 'device_authorization'],
    create: (_provider, deps) => credentialedCors(deps.webOrigins),
  },
  {
    name: 'request-text',
    why: 'reads every form and JSON body first and refuses one that is not text (400 invalid_request) before any middleware or oidc-provider parses it; inside cors, so the refusal gets the CORS headers the answer would have had',
    routes: 'all',
    create: () => requestText(),
  },
  {
    name: 'sign-in-starts',
    why: 'spends the caller’s sign-in point before oidc-provider stores an interaction, a device code or a pushed request; inside cors (a 429 gets the CORS headers), after request-text (a refused body spends nothing)',
    routes: ['authorization', 'device_authorization', 'pushed_authorization_request'],
    create: (_provider, deps) => signInStarts(deps.signInStarts),
  },
  {
    name: 'session-iframe',
    why: 'serves pages oidc-provider does not know; before everything that reads a body or authenticates, none of which applies to them',
    routes: [],
    create: (provider, deps) => sessionIframe(provider, { publicUrl: deps.config.AUTH_URL, allWebOrigins: () => deps.webOrigins.allWebOrigins() }),
  },
  {
    name: 'device-form-origin',
    why: 'refuses a cross-site post of the device code form before oidc-provider reads it',
    routes: ['code_verification'],
    create: (_provider, deps) => deviceFormOrigin(new URL(deps.config.AUTH_URL).origin),
  },
  {
    name: 'jwt-token-endpoints',
    why: "replaces oidc-provider's refusal of a JWT at introspection and revocation, which comes only once the client has authenticated; inside cors, and it answers its own outages",
    routes: ['introspection', 'revocation'],
    create: (provider, deps) => jwtTokenEndpoints({ provider, issuer: deps.config.issuer, jwks: deps.jwks, revocations: deps.revocations, users: deps.users, logger: deps.logger }),
  },
  {
    name: 'client-auth-limiter',
    why: "turns oidc-provider's 401 at the client-authenticated routes into a 429 once the caller is blocked, from what the patched secret comparison left on the context; inside cors, so a 429 gets the same CORS headers as the 401 would",
    routes: ['token', 'introspection', 'revocation'],
    create: (_provider, deps) => clientAuthLimiter(deps.limiter),
  },
  {
    name: 'realm-info',
    why: 'answers the realm root itself; nothing below applies to it',
    routes: [],
    create: (_provider, deps) => realmInfo(deps.config.issuer, deps.jwks),
  },
  {
    name: 'resume-query',
    why: "drops the query of a resume URL before oidc-provider's routes, whose error handler would read it",
    // Resume URLs (`…/auth/<uid>`) are never exactly a route's path: they run the whole list.
    routes: [],
    create: () => resumeQuery,
  },
  {
    name: 'hinted-logout',
    why: "turns the confirmation GET of a sign-out with a valid id_token_hint into the form POST oidc-provider takes; it serves a path outside ROUTES (the logout's /confirm), before any middleware reads a body",
    routes: [],
    create: () => hintedLogoutConfirm(),
  },
  {
    name: 'par-alias',
    why: 'renames the legacy PAR path before the form rewriting, which knows only the real one',
    routes: ['pushed_authorization_request'],
    create: () => parAlias,
  },
  {
    name: 'token-request-forms',
    why: 'reads the form before oidc-provider does (which then reads the rewritten form); below the PAR alias, above everything that reads parameters',
    routes: ['token', 'introspection', 'revocation', 'pushed_authorization_request'],
    create: (_provider, deps) => tokenRequestForms(() => deps.envelopeKeys),
  },
  {
    name: 'userinfo',
    why: "opens or verifies the bearer token before oidc-provider's userinfo sees it",
    routes: ['userinfo'],
    create: (provider, deps) => keycloakUserinfo(() => deps.envelopeKeys, deps.users, accessTokenLiveness(provider, deps.revocations)),
  },
  {
    name: 'token-responses',
    why: 'wraps the tokens of a token response in their envelopes (and renames one refusal); above client-credentials-refresh, whose added refresh token it wraps too',
    routes: ['token'],
    create: (_provider, deps) => keycloakTokenResponses(() => deps.envelopeKeys, deps.config.DEFAULT_SIGNING_ALG),
  },
  {
    name: 'client-credentials-refresh',
    why: 'adds a refresh token to a client-credentials response, so it must run before the middlewares above read that response',
    routes: ['token'],
    create: (provider, deps) => clientCredentialsRefresh(provider, deps.config.REFRESH_TOKEN_TTL),
  },
  {
    name: 'public-document-caching',
    why: "sets Cache-Control on oidc-provider's discovery and JWKS answers; innermost, as no other middleware touches them",
    routes: ['jwks'],
    create: (_provider, deps) => publicDocumentCaching(deps.config.KEY_RELOAD_INTERVAL),
  },
];

/** The paths that select a route's chain: each route's own, and the legacy PAR path (par-alias renames it). */
const ROUTE_OF_PATH: ReadonlyMap<string, RouteName> = new Map<string, RouteName>([
  ...Object.entries(ROUTES).map(([name, path]) => [path, name as RouteName] as const),
  [LEGACY_PAR_PATH, 'pushed_authorization_request'],
]);

/**
 * The entries a request to `path` runs, in the list's order: those declaring its route (or `'all'`)
 * when the path is a protocol route's, every entry otherwise.
 */
export function chainOf<T extends Pick<KeycloakMiddleware, 'routes'>>(list: readonly T[], path: string): readonly T[] {
  const route = ROUTE_OF_PATH.get(path);
  return route === undefined ? list : list.filter((m) => m.routes === 'all' || m.routes.includes(route));
}

function compose(chain: readonly Middleware[]): Middleware {
  return function runChain(ctx, next) {
    const step = (i: number): Promise<void> => (i === chain.length ? next() : chain[i]!(ctx, () => step(i + 1)));
    return step(0);
  };
}

/**
 * Installs the list as one middleware that picks, by path, a chain composed once at start-up: the
 * token endpoint, called most, runs only the few middlewares that act on it.
 */
export function useKeycloakMiddlewares(provider: Provider, deps: ProviderDeps): void {
  const created = KEYCLOAK_MIDDLEWARES.map((m) => ({ routes: m.routes, run: m.create(provider, deps) }));
  const composed = (chain: readonly { run: Middleware }[]) => compose(chain.map((m) => m.run));
  const everything = composed(created);
  const byPath = new Map([...ROUTE_OF_PATH.keys()].map((path) => [path, composed(chainOf(created, path))]));
  const keycloakMiddlewares: Middleware = (ctx, next) => (byPath.get(ctx.path) ?? everything)(ctx, next);
  provider.use(keycloakMiddlewares);
}
