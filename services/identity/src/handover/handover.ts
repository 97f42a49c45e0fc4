import { randomUUID } from 'node:crypto';
import type { HandoverLabel } from '@hush/queue';
import { InvalidInputError } from '../errors.js';
import type { Handover, HandoverKind, HandoversRepository } from './handovers.repository.js';
import type { SecretMetadata, SecretsApi } from './secrets-api.js';

/**
 * Handing a new credential to its owner as a one-time secret, instead of showing it:
 * 1. the credential is shared through the secrets service, which mails the recipient the link;
 * 2. only then is it put into effect (`apply`), so a secrets outage changes nothing;
 * 3. if putting it into effect fails, the secret is burned: the link then leads nowhere;
 * 4. identity keeps the receipt (metadata key, obfuscated recipient), never the credential.
 */

export interface HandoverDeps {
  handovers: HandoversRepository;
  /** Undefined when handover is not configured (SECRETS_URL, HANDOVER_CLIENT_SECRET). */
  secretsApi: SecretsApi | undefined;
  handoverTtl: number;
}

export interface HandoverRequest {
  kind: HandoverKind;
  recipient: string;
  organizationId: string | null;
  createdBy: string | null;
  /** What the e-mail and the reveal page say the credential is, and who handed it over. */
  label: HandoverLabel;
  /** The e-mail's language (admin-api/admin-mail-locale.ts); absent: the secrets service's default, English. */
  locale?: string | undefined;
}

export class HandoverUnavailableError extends InvalidInputError {
  constructor() {
    super('credential handover is not configured (SECRETS_URL and HANDOVER_CLIENT_SECRET)');
  }
}

export async function handOver<T>(
  deps: HandoverDeps,
  request: HandoverRequest,
  credential: string,
  apply: () => Promise<T>,
  subjectOf: (applied: T) => string,
): Promise<{ applied: T; handover: Handover; receipt: HandoverReceipt }> {
  if (!deps.secretsApi) throw new HandoverUnavailableError();
  const shared = await deps.secretsApi.share(credential, request.recipient, deps.handoverTtl, request.label, request.locale);
  let applied: T;
  try {
    applied = await apply();
  } catch (err) {
    await deps.secretsApi.burn(shared.metadata_key).catch(() => undefined);
    throw err;
  }
  const handover = await deps.handovers.create({
    id: randomUUID(),
    kind: request.kind,
    subjectId: subjectOf(applied),
    organizationId: request.organizationId,
    recipient: shared.recipient ?? '',
    metadataKey: shared.metadata_key,
    expiresAt: new Date(Date.now() + deps.handoverTtl * 1000),
    createdBy: request.createdBy,
  });
  return { applied, handover, receipt: toReceipt(handover, shared) };
}

/** A receipt as the admin API shows it: the stored part, and the secret's fate read from the secrets service. */
export interface HandoverReceipt {
  id: string;
  kind: HandoverKind;
  subjectId: string;
  recipient: string;
  created: number;
  expires: number;
  /** The secret's state (`new`, `viewed`, `received`, `burned`, `expired`). */
  state: string;
  /** The e-mail's: `queued`, `sent`, `failed`. */
  deliveryStatus: string | null;
  /** When the owner opened the link and read the credential (Unix time), else null. */
  received: number | null;
}

export async function readReceipt(deps: Pick<HandoverDeps, 'secretsApi'>, handover: Handover): Promise<HandoverReceipt> {
  if (!deps.secretsApi) throw new HandoverUnavailableError();
  return toReceipt(handover, await deps.secretsApi.metadata(handover.metadataKey));
}

export function toReceipt(handover: Handover, metadata: SecretMetadata | undefined): HandoverReceipt {
  return {
    id: handover.id,
    kind: handover.kind,
    subjectId: handover.subjectId,
    recipient: handover.recipient,
    created: Math.floor(handover.createdAt.getTime() / 1000),
    expires: Math.floor(handover.expiresAt.getTime() / 1000),
    state: metadata?.state ?? (handover.expiresAt.getTime() < Date.now() ? 'expired' : 'unknown'),
    deliveryStatus: metadata?.delivery_status ?? null,
    received: metadata?.received ? metadata.received : null,
  };
}
