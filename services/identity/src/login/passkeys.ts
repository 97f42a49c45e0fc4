import type * as WebAuthn from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Redis } from 'ioredis';
import { InvalidInputError } from '../errors.js';
import type { CredentialsRepository, StoredCredential } from './credentials.repository.js';

/**
 * Passkeys (WebAuthn Level 3) on @simplewebauthn/server. Rules:
 * - the relying party is AUTH_URL: its host is the RP ID, its origin the only origin accepted;
 * - passkeys are discoverable credentials with user verification required, so one alone signs a
 *   person in (no username, no password, no second factor);
 * - each ceremony's challenge lives in Redis for CHALLENGE_SECONDS under the binding it was made
 *   for (the person registering, or the sign-in's interaction) and is taken with GETDEL: a
 *   challenge answers one ceremony, once;
 * - the user handle is the user's id; a signed-in assertion must name the passkey's owner;
 * - the signature counter only moves forward, by compare-and-set (credentials.repository.ts).
 */
export interface PasskeyDeps {
  credentials: CredentialsRepository;
  redis: Redis;
  /** Key prefix for challenges (REDIS_PREFIX). */
  prefix: string;
  /** AUTH_URL. */
  authUrl: string;
  rpName: string;
}

export const CHALLENGE_SECONDS = 300;

/**
 * @simplewebauthn/server (with its CBOR, ASN.1 and crypto dependencies, ~5.6 MB of heap and ~30 MB
 * resident) is loaded by the first passkey ceremony, not at start: most processes never see one.
 */
let library: Promise<typeof WebAuthn> | undefined;
const webauthn = () => (library ??= import('@simplewebauthn/server'));
const challengeKey = (deps: Pick<PasskeyDeps, 'prefix'>, purpose: 'register' | 'login', binding: string) => `${deps.prefix}webauthn:${purpose}:${binding}`;

export class PasskeyRefusedError extends InvalidInputError {
  constructor() {
    super('the passkey was not accepted; try again');
  }
}

const rp = (deps: Pick<PasskeyDeps, 'authUrl'>) => {
  const url = new URL(deps.authUrl);
  return { rpID: url.hostname, origin: url.origin };
};

async function takeChallenge(deps: PasskeyDeps, purpose: 'register' | 'login', binding: string): Promise<string> {
  const challenge = await deps.redis.getdel(challengeKey(deps, purpose, binding));
  if (!challenge) throw new PasskeyRefusedError();
  return challenge;
}

export async function registrationOptions(deps: PasskeyDeps, user: { id: string; username: string; name: string | null }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  const existing = await deps.credentials.passkeys(user.id);
  const options = await generateRegistrationOptions({
    rpName: deps.rpName,
    rpID: rp(deps).rpID,
    userName: user.username,
    userDisplayName: user.name ?? user.username,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.webauthnId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await deps.redis.set(challengeKey(deps, 'register', user.id), options.challenge, 'EX', CHALLENGE_SECONDS);
  return options;
}

/** Verifies a registration answered in the browser and stores the passkey under `label`. */
export async function registerPasskey(deps: PasskeyDeps, userId: string, response: RegistrationResponseJSON, label: string): Promise<StoredCredential> {
  const { verifyRegistrationResponse } = await webauthn();
  const expectedChallenge = await takeChallenge(deps, 'register', userId);
  const { rpID, origin } = rp(deps);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true });
  } catch {
    throw new PasskeyRefusedError();
  }
  if (!verified.verified) throw new PasskeyRefusedError();
  const { credential } = verified.registrationInfo;
  return deps.credentials.addPasskey({
    userId,
    label: label.trim().slice(0, 100) || 'Passkey',
    webauthnId: credential.id,
    publicKey: Buffer.from(credential.publicKey),
    signCount: credential.counter,
    transports: credential.transports ?? [],
  });
}

/** Options for "Sign in with a passkey": any discoverable passkey of this RP, user verification required. */
export async function authenticationOptions(deps: PasskeyDeps, binding: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID: rp(deps).rpID, userVerification: 'required', allowCredentials: [] });
  await deps.redis.set(challengeKey(deps, 'login', binding), options.challenge, 'EX', CHALLENGE_SECONDS);
  return options;
}

/** Verifies an assertion made for the challenge of `binding`: the user id and the passkey used. */
export async function authenticatePasskey(deps: PasskeyDeps, binding: string, response: AuthenticationResponseJSON): Promise<{ userId: string; credentialId: string }> {
  const { verifyAuthenticationResponse } = await webauthn();
  const expectedChallenge = await takeChallenge(deps, 'login', binding);
  const passkey = await deps.credentials.findPasskey(response.id);
  if (!passkey) throw new PasskeyRefusedError();
  const handle = response.response.userHandle;
  if (handle !== undefined && Buffer.from(handle, 'base64url').toString() !== passkey.userId) throw new PasskeyRefusedError();
  const { rpID, origin } = rp(deps);
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
      credential: { id: passkey.webauthnId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.signCount, transports: passkey.transports },
    });
  } catch {
    throw new PasskeyRefusedError();
  }
  if (!result.verified) throw new PasskeyRefusedError();
  // Authenticators without a counter report 0 every time; any that count must move forward.
  const next = result.authenticationInfo.newCounter;
  if (!(await deps.credentials.advanceSignCount(passkey.id, passkey.signCount, next))) throw new PasskeyRefusedError();
  return { userId: passkey.userId, credentialId: passkey.id };
}
