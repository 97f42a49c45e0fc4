import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { requireRealmWide } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { rotateKeysStep } from '../keys/index.js';

/** Keycloak's KeysMetadataRepresentation: the realm's signing keys, public parts only. */
/** The step of the rotation `POST /keys/rotation` took. */
export const rotationStep = z.object({
  step: z.enum(['added-next', 'waiting', 'promoted']),
  kids: z.array(z.string()),
  retired: z.array(z.string()),
  retiring: z.array(z.string()).optional(),
  retireAfterSeconds: z.number().optional(),
  promoteAfter: z.string().optional().describe('waiting: when the next keys may be promoted (ISO 8601)'),
});

export const keysMetadata = z.object({
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
      stage: z.enum(['active', 'next', 'retiring']).describe('Hush: where the key is in its rotation (PASSIVE is next or retiring)'),
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
          stage: k.status,
        })),
      };
    },
  }),
  defineAdminRoute({
    operationId: 'rotateKeysStep',
    summary:
      'Hush: one safe step of the signing keys’ rotation, whichever is due (`keys rotate` of the CLI): add next keys (published, not signing), or once every process has loaded them promote them (the old ones retire), and delete retired keys whose tokens have all expired.',
    method: 'post',
    path: '/keys/rotation',
    roles: ['manage-realm'],
    ok: {
      status: 200,
      schema: rotationStep,
      description: 'The step taken',
    },
    async handle(deps: AdminDeps, { caller }) {
      requireRealmWide(caller);
      const step = await rotateKeysStep(deps);
      return step.step === 'waiting' ? { ...step, promoteAfter: step.promoteAfter.toISOString() } : step;
    },
  }),
];
