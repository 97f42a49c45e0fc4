import { WEB_CALLBACK_PATH, WEB_SIGNED_OUT_PATH } from '@hush/contracts';
import express, { type RequestHandler } from 'express';
import { allowFormTarget, pageErrorHandler, pageForms, pageSecurity, type Logger } from '@hush/common';
import type { Config } from '../config.js';
import { API_MOUNT } from '../http/api.routes.js';
import type { Context } from '../context.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { KEY_LABELS } from '../key-labels.js';
import type { RevocationFeed } from '../revocations/revocation-feed.js';
import type { SecretsDeps } from '../secrets/deps.js';
import type { ZkDeps } from '../zk/index.js';
import { apiTokenRoutes } from './api-tokens/index.js';
import { mySecretsRoutes } from './my-secrets/index.js';
import { receiptRoutes, revealRoutes } from './receipt/index.js';
import { answerRoutes, requestsRoutes } from './requests/index.js';
import { shareRoutes, type ShareOptions } from './share/index.js';
import {
  IdentityClient,
  nobodySignedIn,
  pageFrame,
  pageLocale,
  pageSessions,
  secretsErrorPage,
  webCookies,
  WebSessions,
  WebSessionsRepository,
  type PageContext,
  type Viewer,
} from './shared/index.js';
import { settingsRoutes } from './settings/index.js';
import { signInRoutes } from './sign-in/index.js';
import { webOffPage } from './web-off.views.js';
import { zkScript, zkScriptRoutes } from './zk/index.js';

export interface WebApp {
  router: express.Router;
  sessions: WebSessions | undefined;
  /** The signed-in user of this request's browser, if any (never redirects to sign in). */
  viewer: Viewer;
  /** Starts the timer deleting expired sessions (every SWEEP_INTERVAL seconds). */
  start(): void;
  close(): void;
}

/**
 * Every page of the secrets service, wired from its configuration: the recipient's reveal page
 * and the creator's receipt always; the creator's web app (see docs/web-app.md: sign-in through
 * identity, share, My secrets, API tokens, settings) when WEB_CLIENT_SECRET is set, else `/` says how to
 * turn it on. One set of forms (one CSRF key, one origin) and one error page serve them all.
 * `revocations`: identity's, by which a session's address stops counting once the account's changed.
 */
export function createWebApp(
  config: Config,
  deps: SecretsDeps,
  zk: ZkDeps,
  context: Context,
  limiter: RateLimiter,
  logger: Logger,
  revocations: Pick<RevocationFeed, 'addressStatus'>,
  options: ShareOptions = {},
): WebApp {
  const forms = pageForms({ csrfKey: context.masterKeys.derive(KEY_LABELS.csrf), origins: [new URL(config.BASE_URL).origin] });
  const script = zkScript();
  const ctx: PageContext = { secrets: deps, zk, script: { src: script.src, integrity: script.integrity }, baseUrl: config.BASE_URL, forms, limiter, logger };
  const signedIn = config.WEB_CLIENT_SECRET ? signedInApp(config, ctx, context, { clientSecret: config.WEB_CLIENT_SECRET, revocations }, options) : undefined;
  const viewer = signedIn?.viewer ?? nobodySignedIn;

  const router = express.Router();
  router.use(zkScriptRoutes(script));
  // The pages' language; a request for the API that falls through to here (an unknown route) keeps its answer untouched.
  const locale = pageLocale(config.BASE_URL);
  router.use((req, res, next) => (req.path.startsWith(API_MOUNT) ? next() : locale(req, res, next)));
  router.use(revealRoutes(ctx, viewer));
  router.use(answerRoutes(ctx));
  router.use(receiptRoutes(ctx, viewer));
  if (signedIn) router.use(signedIn.router);
  else router.get('/', pageSecurity(), webOff);
  router.use(pageErrorHandler(logger, { fault: { message: 'errors.fault' }, render: secretsErrorPage }));

  let timer: NodeJS.Timeout | undefined;
  return {
    router,
    sessions: signedIn?.sessions,
    viewer,
    start() {
      if (!signedIn) return;
      const { sessions } = signedIn;
      timer = setInterval(() => {
        sessions.sweep(config.SWEEP_BATCH_SIZE).catch((err: unknown) => logger.warn({ err }, 'web session sweep failed'));
      }, config.SWEEP_INTERVAL * 1000);
      timer.unref();
    },
    close() {
      clearInterval(timer);
    },
  };
}

const webOff: RequestHandler = (_req, res) => {
  res.status(503).send(webOffPage(pageFrame(res)));
};

/** The pages behind a sign-in: every one needs a session except the sign-in steps (and, with ANONYMOUS_SHARES, the share page). */
function signedInApp(
  config: Config,
  ctx: PageContext,
  context: Context,
  { clientSecret, revocations }: { clientSecret: string; revocations: Pick<RevocationFeed, 'addressStatus'> },
  options: ShareOptions,
) {
  const identity = new IdentityClient({
    issuer: config.IDENTITY_ISSUER,
    clientId: config.WEB_CLIENT_ID,
    clientSecret,
    redirectUri: `${config.BASE_URL}${WEB_CALLBACK_PATH}`,
    postLogoutRedirectUri: `${config.BASE_URL}${WEB_SIGNED_OUT_PATH}`,
    internalUrl: config.IDENTITY_INTERNAL_URL,
  });
  const sessions = new WebSessions(
    new WebSessionsRepository(context.db),
    identity,
    context.masterKeys,
    { idleSeconds: config.WEB_SESSION_IDLE, maxSeconds: config.WEB_SESSION_MAX },
    ctx.logger,
    revocations,
  );
  const cookies = webCookies(config.BASE_URL);
  const gate = pageSessions({ sessions, cookies, forms: ctx.forms, logger: ctx.logger });

  const router = express.Router();
  router.use(['/', '/secrets', '/ask', '/tokens', '/settings', '/auth'], pageSecurity(), (req, res, next) => {
    // The sign-out form is answered by a redirect to identity: Chromium applies form-action to it.
    allowFormTarget(req, res, config.IDENTITY_ISSUER);
    next();
  });
  router.use(signInRoutes(ctx, { sessions, identity, cookies, masterKeys: context.masterKeys }, gate));
  const { preferences } = context;
  router.use(shareRoutes(ctx, gate, { ...options, preferences }));
  router.use(mySecretsRoutes(ctx, gate));
  router.use(requestsRoutes(ctx, gate));
  router.use(apiTokenRoutes(ctx, context, gate));
  router.use(settingsRoutes(preferences, gate));
  return { router, sessions, viewer: gate.viewer };
}
