/**
 * Every key the secrets service derives from MASTER_KEY (HKDF `info`), in one place and one scheme:
 * `hush:<what>:<purpose>:v<n>`. A label that protects stored data (values, metadata, outbox rows,
 * web sessions) can never change: the rows sealed under it would no longer open. Labels of
 * short-lived material (CSRF, the sign-in cookie) may change at the cost of one failed form.
 */
export const KEY_LABELS = {
  secretValue: 'hush:secret:value:v1',
  secretValueInner: 'hush:secret:value:inner:v2',
  secretValueWrap: 'hush:secret:value:wrap:v2',
  secretPassphrase: 'hush:secret:passphrase:v1',
  metadataSecretKey: 'hush:metadata:secret-key:v1',
  metadataSecretKeyInner: 'hush:metadata:secret-key:inner:v2',
  metadataSecretKeyWrap: 'hush:metadata:secret-key:wrap:v2',
  metadataOwnerKey: 'hush:metadata:owner-key:v1',
  outbox: 'hush:outbox:v1',
  requestOwnerKey: 'hush:request:owner-key:v1',
  requestRecipient: 'hush:request:recipient:v1',
  secretRecipient: 'hush:secret:recipient:v1',
  secretHandoverInner: 'hush:secret:handover:inner:v2',
  secretHandoverWrap: 'hush:secret:handover:wrap:v2',
  secretRecipientInner: 'hush:secret:recipient:inner:v2',
  secretRecipientWrap: 'hush:secret:recipient:wrap:v2',
  recipientCode: 'hush:secret:recipient-code:v1',
  webSession: 'hush:secrets:web-session:v1',
  webSignIn: 'hush:secrets:web-sign-in:v1',
  csrf: 'hush:secrets:web-csrf:v1',
} as const;
