import type express from 'express';
import { REALM_PATH } from '../config.js';
import type { Deps } from '../wiring/deps.js';

/**
 * Keycloak's realm root: what no page took goes to the current provider. oidc-provider needs the
 * raw body, so no body parser runs before it. (Its protocol routes skip Express altogether:
 * direct-dispatch.ts.)
 */
export function mountProtocol(app: express.Express, deps: Pick<Deps, 'protocol'>): void {
  app.use(REALM_PATH, (req, res) => {
    void deps.protocol.listener()(req, res);
  });
}
