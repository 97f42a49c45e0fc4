import express, { type Router } from 'express';
import type { Logger } from '@hush/common';
import { adminAuthenticator } from './admin-auth.js';
import type { AdminDeps, AdminTransaction } from './admin-deps.js';
import { adminErrorHandler } from './admin-errors.js';
import { recordAdminEvent } from './admin-events.js';
import { adminOpenApiDocument } from './admin-openapi.js';
import { adminRouter } from './admin-route.js';
import { ADMIN_MOUNT, ADMIN_ROUTES } from './admin.routes.js';
import { AdminTokenVerifier, type CallerCheck } from './admin-tokens.js';

/** The admin API, ready to mount at ADMIN_MOUNT, and its token verifier (mount.ts gives it each loaded key set). */
export function createAdminApi(opts: {
  deps: AdminDeps;
  /** Runs a change and its admin event in one transaction (admin-transaction.ts). */
  transaction: AdminTransaction;
  authUrl: string;
  issuer: string;
  check: CallerCheck;
  logger: Logger;
}): { router: Router; verifier: AdminTokenVerifier } {
  const verifier = new AdminTokenVerifier(opts.issuer, opts.check);
  const document = adminOpenApiDocument(opts.authUrl);
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  router.use(
    adminRouter(ADMIN_ROUTES, opts.deps, {
      publicUrl: opts.authUrl,
      authorize: adminAuthenticator(verifier),
      transaction: opts.transaction,
      record: recordAdminEvent(opts.deps.events),
    }),
  );
  router.use((_req, res) => {
    res.status(404).json({ error: 'HTTP 404 Not Found' });
  });
  router.use(adminErrorHandler(opts.logger));
  return { router, verifier };
}

export { ADMIN_MOUNT };
