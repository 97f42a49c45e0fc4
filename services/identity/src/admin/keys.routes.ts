import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { requireRealmWide } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';

/** Keycloak's KeysMetadataRepresentation: the realm's signing keys, public parts only. */
const keysMetadata = z.object({
  active: z.record(z.string(), z.string()),
  keys: z.array(
    z.object({
      providerId: z.string(),
      providerPriority: z.number(),
      kid: z.string(),
      status: z.enum(['ACTIVE', 'PASSIVE']),
      type: z.enum(['RSA', 'EC']),
      algorithm: z.string(),
      publicKey: z.string(),
      use: z.literal('SIG'),
    }),
  ),
});

export const keyRoutes = [
  defineAdminRoute({
    operationId: 'listKeys',
    summary: 'The realm’s signing keys: active (signing) and passive (published, next or retiring).',
    method: 'get',
    path: '/keys',
    roles: ['view-realm'],
    ok: { status: 200, schema: keysMetadata, description: 'Keys' },
    async handle(deps: AdminDeps, { caller }) {
      requireRealmWide(caller);
      const keys = await deps.signingKeys.list();
      return {
        active: Object.fromEntries(keys.filter((k) => k.status === 'active').map((k) => [k.alg, k.kid])),
        keys: keys.map((k) => ({
          providerId: `hush-${k.alg.toLowerCase()}`,
          providerPriority: k.status === 'active' ? 100 : 0,
          kid: k.kid,
          status: k.status === 'active' ? ('ACTIVE' as const) : ('PASSIVE' as const),
          type: k.alg === 'RS256' ? ('RSA' as const) : ('EC' as const),
          algorithm: k.alg,
          publicKey: createPublicKey({ key: k.publicJwk as import('node:crypto').JsonWebKey, format: 'jwk' })
            .export({ type: 'spki', format: 'der' })
            .toString('base64'),
          use: 'SIG' as const,
        })),
      };
    },
  }),
];
