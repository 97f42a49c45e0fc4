import { randomUUID } from 'node:crypto';
import type QRCode from 'qrcode';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { KeyRing } from '@hush/common';
import type { CredentialsRepository, StoredCredential } from './credentials.repository.js';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import { acceptedStep, groupedSecret, newTotpSecret, otpauthUri } from './totp.js';

/**
 * The TOTP second factor's use-cases (enrol, verify, remove, new recovery codes). Rules:
 * - the secret is stored sealed (AES-256-GCM under a key derived from MASTER_KEY), bound to its
 *   credential's id; it is shown once, on the enrolment page, and never logged or evented;
 * - an enrolment in progress is stateless: its secret travels in the form, sealed and bound to the
 *   person (or the sign-in) it was made for, with an expiry; it becomes a credential only when a
 *   code from it is confirmed;
 * - a TOTP code is accepted once per time step, a recovery code once, each by one conditional
 *   statement (credentials.repository.ts), so concurrent requests with one code get one success.
 */
export interface SecondFactorDeps {
  credentials: CredentialsRepository;
  /** Seal TOTP secrets, stored and in enrolment (KEY_LABELS.totpSecrets): under the newest, opened under any. */
  totpKeys: KeyRing;
  /** Key the recovery codes' hashes (KEY_LABELS.recoveryCodes): made under the newest, checked under each. */
  recoveryKeys: KeyRing;
  /** The issuer name authenticator apps show. */
  issuerName: string;
}

/** How long an enrolment page's secret can be confirmed. */
export const ENROLMENT_SECONDS = 15 * 60;

export interface Enrolment {
  /** The sealed enrolment, for the form's hidden field. */
  pending: string;
  /** The secret grouped for typing in by hand. */
  secretText: string;
  /** The QR code of the otpauth URI, as inline SVG (attributes only, no style or script). */
  qrSvg: string;
}

/** qrcode (with pngjs, ~1.1 MB of heap) is loaded by the first enrolment page, not at start. */
let qrcode: Promise<typeof QRCode> | undefined;
const qrcodeLibrary = () => (qrcode ??= import('qrcode').then((m) => m.default));

const enrolmentAad = (binding: string) => `totp enrolment\n${binding}`;
const credentialAad = (credentialId: string) => `totp credential\n${credentialId}`;

/** A new secret to enrol, bound to `binding` (the user's id, or the sign-in's interaction). */
export async function startEnrolment(deps: Pick<SecondFactorDeps, 'totpKeys' | 'issuerName'>, binding: string, account: string, now = Date.now()): Promise<Enrolment> {
  const secret = newTotpSecret();
  const expires = Math.floor(now / 1000) + ENROLMENT_SECONDS;
  const pending = deps.totpKeys.seal(`${secret}.${expires}`, enrolmentAad(binding)).toString('base64url');
  const svg = await (await qrcodeLibrary()).toString(otpauthUri(secret, account, deps.issuerName), { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  // Named by the page (second-factor.views.ts), in its language.
  const qrSvg = svg.replace('<svg ', '<svg role="img" aria-labelledby="totp-qr-label" ');
  return { pending, secretText: groupedSecret(secret), qrSvg };
}

/** The secret of a pending enrolment, or undefined if it was not made for `binding` or expired. */
function openEnrolment(deps: Pick<SecondFactorDeps, 'totpKeys'>, binding: string, pending: string, now: number): string | undefined {
  try {
    const [secret, expires] = deps.totpKeys.open(Buffer.from(pending, 'base64url'), enrolmentAad(binding)).toString().split('.');
    return secret && Number(expires) * 1000 > now ? secret : undefined;
  } catch {
    return undefined;
  }
}

export class EnrolmentExpiredError extends InvalidInputError {
  constructor() {
    super('the enrolment expired; start again');
  }
}

/**
 * Confirms an enrolment with a code from the person's app: stores the credential (replacing an
 * earlier one) and returns its ten recovery codes, in clear this once. Undefined when the code is wrong.
 */
export async function confirmEnrolment(
  deps: SecondFactorDeps,
  input: { userId: string; binding: string; pending: string; code: string; label?: string | undefined },
  now = Date.now(),
): Promise<string[] | undefined> {
  const secret = openEnrolment(deps, input.binding, input.pending, now);
  if (!secret) throw new EnrolmentExpiredError();
  const step = acceptedStep(secret, input.code, now, null);
  if (step === undefined) return undefined;
  const id = randomUUID();
  const codes = newRecoveryCodes();
  await deps.credentials.replaceTotp(
    input.userId,
    id,
    deps.totpKeys.seal(secret, credentialAad(id)),
    step,
    codes.map((c) => hashRecoveryCode(deps.recoveryKeys.newest.key, c)),
    input.label?.trim() || 'Authenticator app',
  );
  return codes;
}

/**
 * Checks a code typed at sign-in: a TOTP code of a step not yet used, or an unused recovery code
 * (then spent). Which kind passed, or undefined.
 */
export async function verifySecondFactor(deps: SecondFactorDeps, userId: string, typed: string, now = Date.now()): Promise<'otp' | 'recovery-code' | undefined> {
  if (looksLikeRecoveryCode(typed)) {
    // A code issued before a MASTER_KEY rotation was hashed under an older key of the ring.
    for (const { key } of deps.recoveryKeys.keys) {
      if (await deps.credentials.useRecoveryCode(userId, hashRecoveryCode(key, typed))) return 'recovery-code';
    }
    return undefined;
  }
  const totp = await deps.credentials.findTotp(userId);
  if (!totp) return undefined;
  const secret = deps.totpKeys.open(totp.secretSealed, credentialAad(totp.id)).toString();
  const step = acceptedStep(secret, typed, now, totp.lastStep);
  if (step === undefined) return undefined;
  return (await deps.credentials.acceptStep(totp.id, step)) ? 'otp' : undefined;
}

/** A stored TOTP secret under the newest key of the ring (for the rewrap); throws when no key of the ring opens it. */
export function rewrapTotpSecret(deps: Pick<SecondFactorDeps, 'totpKeys'>, credentialId: string, sealed: Buffer): Buffer {
  return deps.totpKeys.rewrap(sealed, credentialAad(credentialId));
}

/** Ten new recovery codes for a person with TOTP; the earlier ones stop working. */
export async function regenerateRecoveryCodes(deps: Pick<SecondFactorDeps, 'credentials' | 'recoveryKeys'>, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  if (
    !(await deps.credentials.replaceRecoveryCodes(
      userId,
      codes.map((c) => hashRecoveryCode(deps.recoveryKeys.newest.key, c)),
    ))
  )
    throw new NotFoundError('TOTP credential');
  return codes;
}

/** Removes one credential of the person (TOTP with its recovery codes, or a passkey). */
export async function removeCredential(deps: Pick<SecondFactorDeps, 'credentials'>, userId: string, credentialId: string): Promise<StoredCredential> {
  const removed = await deps.credentials.delete(userId, credentialId);
  if (!removed) throw new NotFoundError('Credential');
  return removed;
}
