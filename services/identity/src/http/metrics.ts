import type Provider from 'oidc-provider';
import { Counter, Gauge } from 'prom-client';
import { createHttpMetrics, declaredRoutes } from '@hush/common';
import { REALM_PATH } from '../config.js';
import { type LoadedKey, signingKeyAgeGauge } from '../keys/index.js';
import { LEGACY_PAR_PATH, ROUTES } from '../oidc/routes.js';

/**
 * The routes oidc-provider serves (its router, not Express's, matches them), as patterns under the
 * realm: each of ROUTES, the ones it derives from them (resume, logout confirm and success,
 * device resume), discovery and the earlier PAR path.
 */
const PROVIDER_ROUTES = [
  ...Object.values(ROUTES),
  `${ROUTES.authorization}/:uid`,
  `${ROUTES.end_session}/confirm`,
  `${ROUTES.end_session}/success`,
  `${ROUTES.code_verification}/:uid`,
  '/.well-known/openid-configuration',
  LEGACY_PAR_PATH,
].map((path) => `${REALM_PATH}${path}`);

/** Request metrics plus tokens, token errors, logins, unwritten events and the published signing keys and their age, for GET /metrics. */
export function createIdentityMetrics(sources: { keysFingerprint(): string; loadedKeys(): readonly LoadedKey[] }) {
  const http = createHttpMetrics('identity', { declaredRoutes: declaredRoutes(PROVIDER_ROUTES) });
  const registers = [http.registry];
  const tokens = new Counter({ name: 'hush_identity_tokens_issued_total', help: 'Successful token endpoint responses by grant type', labelNames: ['grant_type'], registers });
  const tokenErrors = new Counter({ name: 'hush_identity_token_errors_total', help: 'Token endpoint errors by OAuth error code', labelNames: ['error'], registers });
  const logins = new Counter({ name: 'hush_identity_authorizations_total', help: 'Completed authorization requests', registers });
  const eventsUnwritten = new Counter({
    name: 'hush_events_unwritten_total',
    help: 'User events not written to the audit log, by reason: rejected (refused by the database), overflow (dropped while it was away), shutdown, after_close',
    labelNames: ['reason'],
    registers,
  });
  new Gauge({
    name: 'hush_identity_signing_keys',
    help: 'Published signing keys by status',
    labelNames: ['status'],
    registers,
    async collect() {
      this.reset();
      for (const part of sources.keysFingerprint().split(',').filter(Boolean)) this.inc({ status: part.split(':')[1] ?? 'unknown' });
    },
  });
  signingKeyAgeGauge(registers, () => sources.loadedKeys());
  /** Counts a provider's events; every new Provider instance (after a key change) is observed. */
  const observe = (p: Provider): Provider => {
    p.on('grant.success', (ctx) => tokens.inc({ grant_type: typeof ctx.oidc.params?.grant_type === 'string' ? ctx.oidc.params.grant_type : 'unknown' }));
    p.on('grant.error', (_ctx, err) => tokenErrors.inc({ error: String((err as { error?: string }).error ?? 'server_error') }));
    p.on('authorization.success', () => logins.inc());
    return p;
  };
  return { http, observe, eventsUnwritten };
}
