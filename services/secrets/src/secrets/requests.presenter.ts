import { z } from 'zod';
import { PASSPHRASE_POLICIES } from '../http/secrets-params.js';
import { seconds, unix, unixTime } from './presenter.js';
import type { RequestView } from './requests.js';

/** A secret request as the API answers it (the OpenAPI document is generated from this schema). */
export const secretRequestResponse = z.strictObject({
  id: z.uuid(),
  label: z.string(),
  state: z.enum(['open', 'fulfilled', 'cancelled', 'expired']).describe('`fulfilled`: a secret was sent through it (it is in the owner’s recent list)'),
  link: z.string().nullable().describe('The link to hand the person asked, while the request is open; null otherwise'),
  passphrase_policy: z.enum(PASSPHRASE_POLICIES),
  secret_ttl: seconds.describe('Lifetime of the secret sent through it'),
  recipient: z
    .string()
    .optional()
    .meta({ description: 'Obfuscated address of the person asked, when one was given', examples: ['bo*@e*****.com'] }),
  created: unixTime,
  expires: unixTime.describe('When the link closes unanswered'),
  fulfilled: unixTime.optional(),
  cancelled: unixTime.optional(),
  public_key: z.string().optional().describe('A zero-knowledge request: its public key (docs/zero-knowledge.md)'),
});

/** The answer to sending a request's secret: who will read it, and for what. */
export const answeredRequestResponse = z.strictObject({ status: z.literal('sent'), requester: z.string(), label: z.string() });

export type SecretRequestResponse = z.output<typeof secretRequestResponse>;
export type RequestState = SecretRequestResponse['state'];

/** `expired` is computed, as for secrets: an open request past its time is expired whether or not the sweeper ran. */
export function requestStateOf(view: RequestView, now = Date.now()): RequestState {
  const { state, expiresAt } = view.record;
  return state === 'open' && expiresAt.getTime() <= now ? 'expired' : state;
}

export function presentRequest(view: RequestView, baseUrl: string, now = Date.now()): SecretRequestResponse {
  const r = view.record;
  const state = requestStateOf(view, now);
  return {
    id: r.id,
    label: r.label,
    state,
    link: state === 'open' && view.requestKey ? `${baseUrl}/request/${view.requestKey}` : null,
    passphrase_policy: r.passphrasePolicy,
    secret_ttl: r.secretTtl,
    ...(r.recipient !== null ? { recipient: r.recipient } : {}),
    created: unix(r.createdAt),
    expires: unix(r.expiresAt),
    ...(r.fulfilledAt ? { fulfilled: unix(r.fulfilledAt) } : {}),
    ...(r.cancelledAt ? { cancelled: unix(r.cancelledAt) } : {}),
    ...(r.publicKey ? { public_key: r.publicKey.toString('base64url') } : {}),
  };
}
