import express, { type NextFunction, type Request, type Response } from 'express';
import { createHmac, randomBytes } from 'node:crypto';
import { constantTimeEqual, type Logger } from '@hush/common';
import type Provider from 'oidc-provider';
import type { UsersService } from '../accounts/users.js';
import type { FailureLimits } from '../ratelimit/failure-limits.js';
import { REALM_PATH } from '../config.js';
import { consentPage, errorPage, loginPage } from './views.js';

export interface InteractionDeps {
  provider: () => Provider;
  users: UsersService;
  limiter: FailureLimits;
  csrfKey: Buffer;
  logger: Logger;
}

/**
 * The login and consent pages oidc-provider redirects to (its devInteractions are off).
 * CSRF: every form carries HMAC(key, interaction uid); the interaction itself is bound to a
 * signed, SameSite cookie, so a forged POST from another site fails twice over.
 */
export function interactionRoutes(deps: InteractionDeps): express.Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '10kb' });
  const csrfFor = (uid: string) => createHmac('sha256', deps.csrfKey).update(uid).digest('base64url');
  const base = (uid: string) => `${REALM_PATH}/login-actions/${uid}`;

  router.use('/login-actions', (_req, res, next) => {
    res.locals['nonce'] = randomBytes(16).toString('base64');
    res.set({
      'Content-Security-Policy': `default-src 'none'; style-src 'nonce-${res.locals['nonce']}'; frame-ancestors 'none'; base-uri 'none'`,
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    next();
  });

  const details = async (req: Request, res: Response) => {
    const interaction = await deps.provider().interactionDetails(req, res);
    if (interaction.uid !== req.params['uid']) throw Object.assign(new Error('interaction mismatch'), { status: 400 });
    return interaction;
  };

  const checkCsrf = (req: Request): boolean => {
    const sent = typeof req.body?.csrf === 'string' ? req.body.csrf : '';
    return constantTimeEqual(sent, csrfFor(String(req.params['uid'])));
  };

  const clientName = async (clientId: unknown) => {
    const client = await deps.provider().Client.find(String(clientId));
    return client?.clientName ?? String(clientId);
  };

  router.get('/login-actions/:uid', async (req, res) => {
    const interaction = await details(req, res);
    const uid = interaction.uid;
    const name = await clientName(interaction.params['client_id']);
    const nonce = res.locals['nonce'] as string;
    if (interaction.prompt.name === 'login') {
      res.type('html').send(loginPage({ action: `${base(uid)}/login`, abort: `${base(uid)}/abort`, csrf: csrfFor(uid), clientName: name, nonce }));
      return;
    }
    const d = interaction.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    const resourceScopes = Object.values(d.missingResourceScopes ?? {}).flat();
    res.type('html').send(
      consentPage({
        action: `${base(uid)}/confirm`,
        abort: `${base(uid)}/abort`,
        csrf: csrfFor(uid),
        clientName: name,
        scopes: [...(d.missingOIDCScope ?? []), ...resourceScopes],
        apis: Object.keys(d.missingResourceScopes ?? {}),
        nonce,
      }),
    );
  });

  router.post('/login-actions/:uid/login', form, async (req, res) => {
    const interaction = await details(req, res);
    if (interaction.prompt.name !== 'login' || !checkCsrf(req)) {
      res.status(400).type('html').send(errorPage('invalid_request', 'the form expired or was not sent from this page; start again'));
      return;
    }
    const username = typeof req.body.username === 'string' ? req.body.username.trim() : '';
    const password = typeof req.body.password === 'string' ? req.body.password : '';
    const { perUser, perIp } = deps.limiter.login;
    const checks = [
      { limit: perUser, key: `${username.toLowerCase()}:${req.ip}` },
      { limit: perIp, key: req.ip ?? 'unknown' },
    ];
    const render = (status: number, error: string) =>
      res.status(status).type('html').send(
        loginPage({
          action: `${base(interaction.uid)}/login`,
          abort: `${base(interaction.uid)}/abort`,
          csrf: csrfFor(interaction.uid),
          clientName: String(interaction.params['client_id']),
          username,
          error,
          nonce: res.locals['nonce'] as string,
        }),
      );

    const wait = await deps.limiter.limits.retryAfter(checks);
    if (wait > 0) {
      res.set('Retry-After', String(wait));
      render(429, `Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`);
      return;
    }
    const user = username && password ? await deps.users.authenticate(username, password) : undefined;
    if (!user) {
      await deps.limiter.limits.penalize(checks);
      deps.logger.info({ event: 'login_failed', ip: req.ip }, 'login failed');
      render(401, 'Invalid username or password.');
      return;
    }
    await deps.provider().interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
  });

  router.post('/login-actions/:uid/confirm', form, async (req, res) => {
    const provider = deps.provider();
    const interaction = await details(req, res);
    if (interaction.prompt.name !== 'consent' || !checkCsrf(req)) {
      res.status(400).type('html').send(errorPage('invalid_request', 'the form expired or was not sent from this page; start again'));
      return;
    }
    const accountId = interaction.session?.accountId as string;
    const d = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    const grant = interaction.grantId
      ? ((await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId, clientId: String(interaction.params['client_id']) }))
      : new provider.Grant({ accountId, clientId: String(interaction.params['client_id']) });
    if (d.missingOIDCScope) grant.addOIDCScope(d.missingOIDCScope.join(' '));
    if (d.missingOIDCClaims) grant.addOIDCClaims(d.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(d.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });

  router.post('/login-actions/:uid/abort', form, async (req, res) => {
    await details(req, res);
    if (!checkCsrf(req)) {
      res.status(400).type('html').send(errorPage('invalid_request', 'the form expired or was not sent from this page; start again'));
      return;
    }
    await deps.provider().interactionFinished(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, { mergeWithLastSubmission: false });
  });

  // Expired or missing interaction cookies are the common failure here: a page, not a stack trace.
  router.use('/login-actions', (err: Error & { status?: number; statusCode?: number }, _req: Request, res: Response, _next: NextFunction) => {
    const status = err.status ?? err.statusCode ?? 500;
    if (status >= 500) deps.logger.error({ err }, 'interaction failed');
    res
      .status(status >= 500 ? 500 : status)
      .type('html')
      .send(errorPage(status >= 500 ? 'server_error' : 'invalid_request', status >= 500 ? 'please try again' : 'this sign-in page has expired; go back to the application and start again'));
  });

  return router;
}
