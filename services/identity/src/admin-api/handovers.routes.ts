import type { Response } from 'express';
import { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { withinReach } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { idParams, paging } from './admin-schemas.js';
import { type Handover, type HandoverReceipt, readReceipt } from '../handover/index.js';

/**
 * Receipts of credentials handed over as one-time secrets (handover/handover.ts). A call that
 * would show a new credential once (client creation and secret rotation, user creation and
 * reset-password) takes `handoverTo=<e-mail address>` in its query instead: the credential goes
 * to that address through the secrets service and the answer carries only the receipt's id, in
 * the `Hush-Handover` header (and, for a rotation, as `handover` in the body).
 */

/** The query option of the calls that can hand a credential over. */
export const handoverQuery = z.object({ handoverTo: z.email('handoverTo must be one e-mail address').optional() });

/** The answer's header naming the receipt. */
export const HANDOVER_HEADER = 'Hush-Handover';

export function announceHandover(res: Response, handover: Handover): void {
  res.setHeader(HANDOVER_HEADER, handover.id);
}

export const handoverReceipt = z.object({
  id: z.string(),
  kind: z.enum(['client_secret', 'password']),
  subjectId: z.string().describe('the client’s or user’s internal id'),
  recipient: z.string().describe('the address, obfuscated'),
  created: z.number().int(),
  expires: z.number().int().describe('when the one-time link ends (Unix time)'),
  state: z.string().describe('the secret’s: new, viewed, received (opened by its owner), burned, expired'),
  deliveryStatus: z.string().nullable().describe('the e-mail’s: queued, sent, failed'),
  received: z.number().int().nullable().describe('when the owner opened it (Unix time)'),
}) satisfies z.ZodType<HandoverReceipt>;

const ROLES = ['view-clients', 'view-users', 'manage-clients', 'manage-users'] as const;

export const handoverRoutes = [
  defineAdminRoute({
    operationId: 'listHandovers',
    summary: 'Receipts of handed-over credentials, newest first; of one client or user with `subject=<internal id>`. Their fate is read from the secrets service.',
    method: 'get',
    path: '/handovers',
    roles: ROLES,
    query: z.object({ subject: z.string().optional(), ...paging(20) }),
    ok: { status: 200, schema: z.array(handoverReceipt), description: 'The receipts' },
    errors: { '503': 'The secrets service cannot be reached' },
    async handle(deps: AdminDeps, { query, caller }) {
      const list = await deps.handovers.list({ subjectId: query.subject, organizationId: caller.organizationId, first: query.first, max: query.max });
      return Promise.all(list.map((h) => readReceipt(deps, h)));
    },
  }),
  defineAdminRoute({
    operationId: 'getHandover',
    summary: 'One receipt: to whom, and whether the one-time link was delivered, opened or expired.',
    method: 'get',
    path: '/handovers/:id',
    roles: ROLES,
    params: idParams,
    ok: { status: 200, schema: handoverReceipt, description: 'The receipt' },
    errors: { '404': 'No such handover (or outside the caller’s organization)', '503': 'The secrets service cannot be reached' },
    async handle(deps: AdminDeps, { params, caller }) {
      const handover = await deps.handovers.findById(params.id);
      if (!handover || !withinReach(caller, handover.organizationId)) throw new NotFoundError('Handover');
      return readReceipt(deps, handover);
    },
  }),
];
