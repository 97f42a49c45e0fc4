/**
 * Every key identity derives from MASTER_KEY (HKDF `info`), in one place and one scheme:
 * `hush identity <purpose> v<n>`. A label that protects stored data (signing keys, refresh-token
 * envelopes, device codes) can never change: what was sealed under it would no longer open.
 */
export const KEY_LABELS = {
  signingKeys: 'hush identity signing keys v1',
  refreshEnvelopes: 'hush identity refresh token envelopes v1',
  deviceCodes: 'hush identity device codes v1',
  cookies: 'hush identity cookies v1',
  anonymousSessions: 'hush identity anonymous sessions v1',
  csrf: 'hush identity csrf v1',
  clientSecrets: 'hush identity client secrets v1',
  mailOutbox: 'hush identity mail outbox v1',
  consoleSessions: 'hush identity console sessions v1',
  totpSecrets: 'hush identity totp secrets v1',
  recoveryCodes: 'hush identity recovery codes v1',
} as const;
