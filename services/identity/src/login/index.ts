import type { Redis } from 'ioredis';
import { KeyRing } from '@hush/common';
import type { Config } from '../config.js';
import { KEY_LABELS } from '../key-labels.js';
import type { CredentialsRepository } from './credentials.repository.js';
import type { PasskeyDeps } from './passkeys.js';
import type { SecondFactorDeps } from './second-factor.js';

/** The name authenticator apps and passkey prompts show for this server. */
export const RP_NAME = 'Hush';

/** The second factor's and passkeys' deps, wired once from the config (keys derived from MASTER_KEY). */
export function secondFactorDeps(
  config: Pick<Config, 'MASTER_KEY' | 'MASTER_KEYS_PREVIOUS' | 'AUTH_URL' | 'REDIS_PREFIX'>,
  context: { credentials: CredentialsRepository },
  redis: Redis,
): { secondFactor: SecondFactorDeps; passkeys: PasskeyDeps; redis: Redis; prefix: string } {
  const masterKeys = KeyRing.of(config.MASTER_KEY, config.MASTER_KEYS_PREVIOUS, 'MASTER_KEY');
  return {
    secondFactor: {
      credentials: context.credentials,
      totpKeys: masterKeys.derive(KEY_LABELS.totpSecrets),
      recoveryKeys: masterKeys.derive(KEY_LABELS.recoveryCodes),
      issuerName: RP_NAME,
    },
    passkeys: { credentials: context.credentials, redis, prefix: config.REDIS_PREFIX, authUrl: config.AUTH_URL, rpName: RP_NAME },
    redis,
    prefix: config.REDIS_PREFIX,
  };
}

export { signInLimits, type SignInLimits } from './sign-in-limits.js';
export { ConsentsRepository, type StoredConsent } from './consents.repository.js';
export { CredentialsRepository, type CredentialType, type StoredCredential } from './credentials.repository.js';
export { authenticatePasskey, authenticationOptions, PasskeyRefusedError, registerPasskey, registrationOptions, type PasskeyDeps } from './passkeys.js';
export {
  confirmEnrolment,
  EnrolmentExpiredError,
  regenerateRecoveryCodes,
  rewrapTotpSecret,
  removeCredential,
  startEnrolment,
  verifySecondFactor,
  type Enrolment,
  type SecondFactorDeps,
} from './second-factor.js';
export { codeForm, enrolmentForm, passkeyScript, recoveryCodesList, WEBAUTHN_SCRIPT_PATH } from './second-factor.views.js';
export { loggedOutPage, logoutPage } from './login.views.js';
export { deviceConfirmPage, deviceInputPage, deviceSuccessPage } from './device.views.js';
