import express, { type NextFunction, type Request, type Response } from 'express';
import { apiSecurity, verifyBodyText } from '@hush/common';
import type { EventRecorder } from '../events/index.js';
import { ProfileInvalidError, updateProfile, type AccountDeps } from './account.js';
import type { AccountCaller } from './account-token.js';
import type { User } from '../users/index.js';
import { type Client, resolveWebOrigins } from '../clients/index.js';

export interface AccountApiDeps {
  account: AccountDeps;
  verify: (token: string) => Promise<AccountCaller | undefined>;
  clients: { find(clientId: string): Promise<Client | undefined> };
  /** Whether some client registers `origin` as a web origin (a preflight names no client). */
  isWebOrigin: (origin: string) => Promise<boolean>;
  events?: Pick<EventRecorder, 'user'>;
}

/** The profile as Keycloak's account REST API answers it (UserRepresentation, its account subset). */
export function accountRepresentation(user: User) {
  return {
    id: user.id,
    username: user.username,
    ...(user.firstName ? { firstName: user.firstName } : {}),
    ...(user.lastName ? { lastName: user.lastName } : {}),
    ...(user.email ? { email: user.email } : {}),
    emailVerified: user.emailVerified,
    attributes: user.locale ? { locale: [user.locale] } : {},
  };
}

const METHODS = 'GET, POST, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept';
const wantsJson = (req: Request) =>
  req.method === 'OPTIONS' || (req.method === 'POST' ? req.is('application/json') === 'application/json' : req.accepts(['html', 'json']) === 'json');

/**
 * Keycloak's account REST API at the account console's own path (`GET` and `POST /`), taken by
 * requests that ask for JSON (`Accept: application/json`, a JSON body, a CORS preflight); every
 * other request goes on to the console's pages. Rules:
 * - a bearer access token of the person (account-token.ts); none or a bad one: 401;
 * - CORS as Keycloak's: an actual request from an origin its token's client registers gets
 *   credentialed CORS headers, any other origin none; a preflight is answered for an origin some
 *   client registers;
 * - `POST` saves first name, last name and e-mail (a new address is unverified) and answers 204;
 *   what is invalid is a 400 in Keycloak's ErrorRepresentation (`field`, `errorMessage`, `params`;
 *   several under `errors`).
 */
export function accountApi(deps: AccountApiDeps): express.Router {
  const router = express.Router();
  const json = express.json({ limit: '16kb', type: 'application/json', verify: verifyBodyText('json') });
  const headers = apiSecurity();

  router.options('/', async (req, res, next) => {
    const origin = req.get('origin');
    if (!origin || !req.get('access-control-request-method')) return next();
    res.vary('Origin');
    if (origin !== 'null' && (await deps.isWebOrigin(origin))) {
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Allow-Methods': METHODS,
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': '3600',
      });
    }
    res.status(204).end();
  });

  /** The caller, with CORS headers when its client registers the request's origin; else a 401 sent. */
  const caller = async (req: Request, res: Response): Promise<AccountCaller | undefined> => {
    res.vary('Origin');
    const auth = req.get('authorization') ?? '';
    const match = /^bearer +(\S+)$/i.exec(auth);
    const found = match?.[1] ? await deps.verify(match[1]) : undefined;
    const origin = req.get('origin');
    if (found && origin && origin !== 'null') {
      const client = await deps.clients.find(found.clientId);
      if (client && resolveWebOrigins(client.webOrigins, client.redirectUris).includes(origin)) {
        res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true' });
      }
    }
    if (!found) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="public"').json({ error: 'HTTP 401 Unauthorized' });
      return undefined;
    }
    return found;
  };

  const apiOnly = (req: Request, _res: Response, next: NextFunction) => next(wantsJson(req) ? undefined : 'route');

  router.get('/', apiOnly, headers, async (req, res) => {
    const who = await caller(req, res);
    if (!who) return;
    const user = await deps.account.users.findById(who.userId);
    if (!user?.enabled) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="public"').json({ error: 'HTTP 401 Unauthorized' });
      return;
    }
    res.json(accountRepresentation(user));
  });

  router.post('/', apiOnly, headers, json, async (req, res) => {
    const who = await caller(req, res);
    if (!who) return;
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const text = (name: string) => (typeof body[name] === 'string' ? body[name] : body[name] === null ? null : undefined);
    try {
      const { emailChanged } = await updateProfile(deps.account, who.userId, {
        firstName: text('firstName'),
        lastName: text('lastName'),
        email: text('email'),
        username: typeof body['username'] === 'string' ? body['username'] : undefined,
        locale: localeOfAttributes(body['attributes']),
      });
      deps.events?.user({ type: 'UPDATE_PROFILE', userId: who.userId, clientId: who.clientId, ipAddress: req.ip });
      if (emailChanged) deps.events?.user({ type: 'UPDATE_EMAIL', userId: who.userId, clientId: who.clientId, ipAddress: req.ip });
      res.status(204).end();
    } catch (err) {
      if (!(err instanceof ProfileInvalidError)) throw err;
      const errors = err.fields.map(({ field, errorMessage, params }) => ({ field, errorMessage, params }));
      res.status(400).json(errors.length === 1 ? errors[0] : { errors });
    }
  });

  // A body that is not JSON, or too large: answered as JSON, not as the console's error page.
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    const status = (err as { status?: unknown }).status;
    if (!wantsJson(req) || typeof status !== 'number' || status < 400 || status >= 500) return next(err);
    res.status(status).json({ error: 'invalid_request', error_description: status === 413 ? 'request body too large' : 'the body is not JSON' });
  });

  return router;
}

/** Keycloak's `attributes.locale` (a list, or one value): undefined when not sent, null to remove it. */
function localeOfAttributes(attributes: unknown): string | null | undefined {
  if (typeof attributes !== 'object' || attributes === null || !Object.hasOwn(attributes, 'locale')) return undefined;
  const raw = (attributes as Record<string, unknown>)['locale'];
  const value: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
  return typeof value === 'string' ? value : null;
}
