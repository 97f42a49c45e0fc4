import type express from 'express';
import { REALM_PATH } from '../config.js';
import type { Deps } from '../wiring/deps.js';
import { accountActionRoutes } from './account-links.routes.js';

/** The pages of e-mailed links, "Forgot password?" and registration, under REALM_PATH (before login's `/login-actions/:uid`, which would take their names). */
export function mountAccountLinks(app: express.Express, deps: Pick<Deps, 'config' | 'logger' | 'context' | 'accountActions' | 'limiter' | 'csrfKey' | 'events'>): void {
  const { config, context, limiter } = deps;
  app.use(
    REALM_PATH,
    accountActionRoutes({
      actions: { ...deps.accountActions, sessions: context.sessions, revocations: context.revocations },
      users: context,
      limits: {
        limits: limiter.limits,
        resetPerAddress: limiter.limits.define('reset', config.RESET_MAX_PER_ADDRESS, config.RESET_WINDOW),
        resetPerIp: limiter.limits.define('reset-ip', config.RESET_MAX_PER_IP, config.RESET_WINDOW),
        registerPerIp: limiter.limits.define('register-ip', config.REGISTRATION_MAX_PER_IP, config.RESET_WINDOW),
      },
      resetLifespanSeconds: config.RESET_LINK_LIFESPAN,
      verifyLifespanSeconds: config.ACTIONS_LINK_LIFESPAN,
      registration: config.REGISTRATION,
      csrfKey: deps.csrfKey,
      origin: new URL(config.AUTH_URL).origin,
      logger: deps.logger,
      events: deps.events,
    }),
  );
}
