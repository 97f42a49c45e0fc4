import { deriveKey, open, seal, sealedKeyId, type KeyRing } from '@hush/common';
import { handoverLabel, type HandoverLabel } from '@hush/queue';
import { KEY_LABELS } from '../key-labels.js';

/**
 * Every ciphertext is sealed under a key derived with HKDF from the newest key of the MASTER_KEY
 * ring and tagged with that key's id (crypto-ring.ts); older keys of the ring open what they
 * sealed, and the `rewrap` command moves it under the newest.
 * - the value: sealed twice. Inside, under HKDF(secret_key) (and, with a passphrase, HKDF(that,
 *   salt = passphrase): the passphrase is part of the key that encrypts the secret); around it,
 *   under HKDF(MASTER_KEY). A copy of the database plus MASTER_KEY therefore decrypts nothing, a
 *   deleted row is gone for good, and the outer layer can be rewrapped without the link.
 * - the metadata's copy of the secret key: the same two layers, inside under HKDF(metadata_key).
 * - the owner's copy of the metadata key (for `recent`): HKDF(MASTER_KEY) alone, the owner's
 *   custid in the AAD, so it opens only for the account whose list it is in.
 * - an outbox row (recipient address and link): HKDF(MASTER_KEY) alone, as the relay must read it
 *   without any key; the row is deleted as soon as the job is queued.
 * - a request's key, for its owner's list, as the metadata key; the address of the person asked,
 *   as an outbox row.
 * - the address a recipient-only secret is for: as the value, inside under HKDF(secret_key), so
 *   only a holder of the link learns it (and a deleted row takes it along).
 * The AAD binds each ciphertext to its row (the hash of its key), so rows cannot be swapped.
 *
 * Rows sealed before key rings (untagged, one layer under HKDF(MASTER_KEY, salt = the link's
 * key)) still open, under each key of the ring; they cannot be rewrapped without their link.
 */
export class SecretCrypto {
  private readonly valueRing: KeyRing;
  private readonly secretKeyRing: KeyRing;
  private readonly recipientRing: KeyRing;
  private readonly handoverRing: KeyRing;
  private readonly metadataKeyRing: KeyRing;
  private readonly outboxRing: KeyRing;
  private readonly requestOwnerRing: KeyRing;
  private readonly requestRecipientRing: KeyRing;
  private readonly codeRing: KeyRing;

  constructor(private readonly ring: KeyRing) {
    this.valueRing = ring.derive(KEY_LABELS.secretValueWrap);
    this.secretKeyRing = ring.derive(KEY_LABELS.metadataSecretKeyWrap);
    this.recipientRing = ring.derive(KEY_LABELS.secretRecipientWrap);
    this.handoverRing = ring.derive(KEY_LABELS.secretHandoverWrap);
    this.metadataKeyRing = ring.derive(KEY_LABELS.metadataOwnerKey);
    this.outboxRing = ring.derive(KEY_LABELS.outbox);
    this.requestOwnerRing = ring.derive(KEY_LABELS.requestOwnerKey);
    this.requestRecipientRing = ring.derive(KEY_LABELS.requestRecipient);
    this.codeRing = ring.derive(KEY_LABELS.recipientCode);
  }

  /** The inner key of a value: from the link's key alone (and the passphrase), never from MASTER_KEY. */
  private valueKey(secretKey: string, passphrase: string | undefined): Buffer {
    const base = deriveKey(Buffer.from(secretKey), KEY_LABELS.secretValueInner);
    return passphrase === undefined ? base : deriveKey(base, KEY_LABELS.secretPassphrase, passphrase);
  }

  /** The key of an untagged value: HKDF(root, salt = secret_key), then the passphrase, as sealed before rings. */
  private untaggedValueKey(root: Buffer, secretKey: string, passphrase: string | undefined): Buffer {
    const base = deriveKey(root, KEY_LABELS.secretValue, secretKey);
    return passphrase === undefined ? base : deriveKey(base, KEY_LABELS.secretPassphrase, passphrase);
  }

  sealValue(secretKey: string, secretHash: Buffer, passphrase: string | undefined, value: string): Buffer {
    const aad = `secret:${secretHash.toString('hex')}`;
    return this.valueRing.seal(seal(this.valueKey(secretKey, passphrase), value, aad), aad);
  }

  openValue(secretKey: string, secretHash: Buffer, passphrase: string | undefined, sealed: Buffer): string {
    const aad = `secret:${secretHash.toString('hex')}`;
    if (sealedKeyId(sealed)) return open(this.valueKey(secretKey, passphrase), this.valueRing.open(sealed, aad), aad).toString('utf8');
    return this.openUntagged((root) => this.untaggedValueKey(root, secretKey, passphrase), sealed, aad);
  }

  sealSecretKey(metadataKey: string, metadataHash: Buffer, secretKey: string): Buffer {
    const aad = `metadata:${metadataHash.toString('hex')}`;
    return this.secretKeyRing.seal(seal(deriveKey(Buffer.from(metadataKey), KEY_LABELS.metadataSecretKeyInner), secretKey, aad), aad);
  }

  openSecretKey(metadataKey: string, metadataHash: Buffer, sealed: Buffer): string {
    const aad = `metadata:${metadataHash.toString('hex')}`;
    if (sealedKeyId(sealed)) return open(deriveKey(Buffer.from(metadataKey), KEY_LABELS.metadataSecretKeyInner), this.secretKeyRing.open(sealed, aad), aad).toString('utf8');
    return this.openUntagged((root) => deriveKey(root, KEY_LABELS.metadataSecretKey, metadataKey), sealed, aad);
  }

  /** An untagged ciphertext under the key `keyOf` derives from whichever root key of the ring sealed it. */
  private openUntagged(keyOf: (root: Buffer) => Buffer, sealed: Buffer, aad: string): string {
    let failure: unknown;
    for (const { key } of this.ring.keys) {
      try {
        return open(keyOf(key), sealed, aad).toString('utf8');
      } catch (err) {
        failure = err;
      }
    }
    throw failure;
  }

  sealMetadataKey(custid: string, metadataHash: Buffer, metadataKey: string): Buffer {
    return this.metadataKeyRing.seal(metadataKey, `owner:${custid}:${metadataHash.toString('hex')}`);
  }

  openMetadataKey(custid: string, metadataHash: Buffer, sealed: Buffer): string {
    return this.metadataKeyRing.open(sealed, `owner:${custid}:${metadataHash.toString('hex')}`).toString('utf8');
  }

  sealOutbox(id: string, payload: string): Buffer {
    return this.outboxRing.seal(payload, `outbox:${id}`);
  }

  openOutbox(id: string, sealed: Buffer): string {
    return this.outboxRing.open(sealed, `outbox:${id}`).toString('utf8');
  }

  /**
   * Where a creator's notifications go, kept on the metadata under the outbox key (the relay opens
   * it as it opens any outbox row), bound to the metadata hash: the reveal, burn and sweep
   * statements copy it into the outbox as it is.
   */
  sealNotify(metadataHash: Buffer, payload: string): Buffer {
    return this.outboxRing.seal(payload, `notify:${metadataHash.toString('hex')}`);
  }

  openNotify(metadataHash: Buffer, sealed: Buffer): string {
    return this.outboxRing.open(sealed, `notify:${metadataHash.toString('hex')}`).toString('utf8');
  }

  /** A request's key for its owner's list (as the metadata key for `recent`): the owner's custid in the AAD. */
  sealRequestKey(custid: string, requestHash: Buffer, requestKey: string): Buffer {
    return this.requestOwnerRing.seal(requestKey, `request:${custid}:${requestHash.toString('hex')}`);
  }

  openRequestKey(custid: string, requestHash: Buffer, sealed: Buffer): string {
    return this.requestOwnerRing.open(sealed, `request:${custid}:${requestHash.toString('hex')}`).toString('utf8');
  }

  /** The address of the person asked (for the request e-mail), bound to the request's id. */
  sealRequestRecipient(id: string, address: string): Buffer {
    return this.requestRecipientRing.seal(address, `request-recipient:${id}`);
  }

  openRequestRecipient(id: string, sealed: Buffer): string {
    return this.requestRecipientRing.open(sealed, `request-recipient:${id}`).toString('utf8');
  }

  /** The one address that may read a recipient-only secret, opened only with the secret key. */
  sealRecipient(secretKey: string, secretHash: Buffer, address: string): Buffer {
    const aad = `recipient:${secretHash.toString('hex')}`;
    return this.recipientRing.seal(seal(deriveKey(Buffer.from(secretKey), KEY_LABELS.secretRecipientInner), address, aad), aad);
  }

  openRecipient(secretKey: string, secretHash: Buffer, sealed: Buffer): string {
    const aad = `recipient:${secretHash.toString('hex')}`;
    if (sealedKeyId(sealed)) return open(deriveKey(Buffer.from(secretKey), KEY_LABELS.secretRecipientInner), this.recipientRing.open(sealed, aad), aad).toString('utf8');
    return this.openUntagged((root) => deriveKey(root, KEY_LABELS.secretRecipient, secretKey), sealed, aad);
  }

  /**
   * A handed-over credential's label, sealed as the recipient's address is: inside under a key from
   * the secret key alone, outside under the newest root key (a rewrap moves the outer layer).
   */
  sealHandover(secretKey: string, secretHash: Buffer, label: HandoverLabel): Buffer {
    const aad = `handover:${secretHash.toString('hex')}`;
    return this.handoverRing.seal(seal(deriveKey(Buffer.from(secretKey), KEY_LABELS.secretHandoverInner), JSON.stringify(label), aad), aad);
  }

  /** The label `sealHandover` sealed; undefined when it does not open or read as a label (never fails a page). */
  openHandover(secretKey: string, secretHash: Buffer, sealed: Buffer): HandoverLabel | undefined {
    try {
      const aad = `handover:${secretHash.toString('hex')}`;
      const text = open(deriveKey(Buffer.from(secretKey), KEY_LABELS.secretHandoverInner), this.handoverRing.open(sealed, aad), aad).toString('utf8');
      const label = handoverLabel.safeParse(JSON.parse(text));
      return label.success ? label.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** A one-time code as stored: HMAC under a MASTER_KEY-derived key (the newest), bound to its secret (a copy of the table guesses nothing offline). */
  codeHash(secretHash: Buffer, code: string): Buffer {
    return this.codeRing.mac(`${secretHash.toString('hex')}:${code}`);
  }

  /** Whether `stored` is the hash of `code` under any key of the ring (a code sent before a rotation still works). */
  codeMatches(secretHash: Buffer, code: string, stored: Buffer): boolean {
    return this.codeRing.verifyMac(`${secretHash.toString('hex')}:${code}`, stored);
  }

  /**
   * The outer layers a rewrap moves under the newest key, by column: each opens and seals again
   * with the same AAD, without any link's key. Untagged (pre-ring) values, secret-key copies and
   * recipients cannot be moved: their only layer needs the link's key.
   */
  readonly rewrappable = {
    value: (secretHash: Buffer, sealed: Buffer) => this.valueRing.rewrap(sealed, `secret:${secretHash.toString('hex')}`),
    secretKey: (metadataHash: Buffer, sealed: Buffer) => this.secretKeyRing.rewrap(sealed, `metadata:${metadataHash.toString('hex')}`),
    recipient: (secretHash: Buffer, sealed: Buffer) => this.recipientRing.rewrap(sealed, `recipient:${secretHash.toString('hex')}`),
    handover: (secretHash: Buffer, sealed: Buffer) => this.handoverRing.rewrap(sealed, `handover:${secretHash.toString('hex')}`),
    metadataKey: (custid: string, metadataHash: Buffer, sealed: Buffer) => this.metadataKeyRing.rewrap(sealed, `owner:${custid}:${metadataHash.toString('hex')}`),
    outbox: (id: string, sealed: Buffer) => this.outboxRing.rewrap(sealed, `outbox:${id}`),
    notify: (metadataHash: Buffer, sealed: Buffer) => this.outboxRing.rewrap(sealed, `notify:${metadataHash.toString('hex')}`),
    requestKey: (custid: string, requestHash: Buffer, sealed: Buffer) => this.requestOwnerRing.rewrap(sealed, `request:${custid}:${requestHash.toString('hex')}`),
    requestRecipient: (id: string, sealed: Buffer) => this.requestRecipientRing.rewrap(sealed, `request-recipient:${id}`),
  };

  /** The id of the newest root key, as tagged ciphertexts carry it (crypto-ring.ts). */
  get newestKeyId(): Buffer {
    return this.ring.newest.id;
  }
}
