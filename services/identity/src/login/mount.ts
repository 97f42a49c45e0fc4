import type express from 'express';
import { REALM_PATH } from '../config.js';
import type { Deps } from '../wiring/deps.js';
import { loginGate } from './login-gate.js';
import { interactionRoutes } from './login.routes.js';
import { webauthnScript } from './passkey-script.js';
import { secondStep, WEBAUTHN_SCRIPT_URL } from './second-step.routes.js';

/** The sign-in pages under REALM_PATH (`/login-actions/:uid…`: password, second step, passkeys, consent) and the passkey script. */
export function mountLogin(app: express.Express, deps: Pick<Deps, 'config' | 'logger' | 'context' | 'limiter' | 'csrfKey' | 'events' | 'protocol' | 'mfa'>): void {
  const { config, context, limiter, events } = deps;
  app.get(WEBAUTHN_SCRIPT_URL, webauthnScript());
  app.use(
    REALM_PATH,
    interactionRoutes({
      provider: deps.protocol.provider,
      users: context,
      limiter,
      // Anonymous work bounded per IP: login pages viewed.
      pageViews: limiter.limits.define('login-page-ip', config.LOGIN_PAGE_MAX_PER_IP, config.SIGN_IN_WINDOW),
      loginGate: loginGate(context.passwords, config.LOGIN_CONCURRENCY_PER_IP),
      csrfKey: deps.csrfKey,
      origin: new URL(config.AUTH_URL).origin,
      logger: deps.logger,
      events,
      secondStep: secondStep({ ...deps.mfa, users: context.users, limiter, events }),
      registration: config.REGISTRATION,
      consents: context.consents,
      accountHref: `${REALM_PATH}/account/applications`,
    }),
  );
}
