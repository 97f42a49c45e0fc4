import { createHmac } from 'node:crypto';
import { deriveKey, open, seal } from '@hush/common';
import { handoverLabel, type HandoverLabel } from '@hush/queue';
import { KEY_LABELS } from '../key-labels.js';

/**
 * Every key of a secret is derived with HKDF from MASTER_KEY and something the database never
 * holds in clear:
 * - the value: HKDF(MASTER_KEY, salt = secret_key), then, with a passphrase, HKDF(that, salt =
 *   passphrase) (the passphrase is part of the key that encrypts the secret). A copy of the
 *   database plus MASTER_KEY therefore decrypts nothing, and a deleted row is gone for good.
 * - the metadata's copy of the secret key: HKDF(MASTER_KEY, salt = metadata_key).
 * - the owner's copy of the metadata key (for `recent`): HKDF(MASTER_KEY) alone, the owner's
 *   custid in the AAD, so it opens only for the account whose list it is in.
 * - an outbox row (recipient address and link): HKDF(MASTER_KEY) alone, as the relay must read it
 *   without any key; the row is deleted as soon as the job is queued.
 * - a request's key, for its owner's list, as the metadata key; the address of the person asked,
 *   as an outbox row.
 * - the address a recipient-only secret is for: as the value, HKDF(MASTER_KEY, salt = secret_key),
 *   so only a holder of the link learns it (and a deleted row takes it along).
 * The AAD binds each ciphertext to its row (the hash of its key), so rows cannot be swapped.
 */
export class SecretCrypto {
  constructor(private readonly masterKey: Buffer) {}

  private valueKey(secretKey: string, passphrase: string | undefined): Buffer {
    const base = deriveKey(this.masterKey, KEY_LABELS.secretValue, secretKey);
    return passphrase === undefined ? base : deriveKey(base, KEY_LABELS.secretPassphrase, passphrase);
  }

  sealValue(secretKey: string, secretHash: Buffer, passphrase: string | undefined, value: string): Buffer {
    return seal(this.valueKey(secretKey, passphrase), value, `secret:${secretHash.toString('hex')}`);
  }

  openValue(secretKey: string, secretHash: Buffer, passphrase: string | undefined, sealed: Buffer): string {
    return open(this.valueKey(secretKey, passphrase), sealed, `secret:${secretHash.toString('hex')}`).toString('utf8');
  }

  sealSecretKey(metadataKey: string, metadataHash: Buffer, secretKey: string): Buffer {
    return seal(deriveKey(this.masterKey, KEY_LABELS.metadataSecretKey, metadataKey), secretKey, `metadata:${metadataHash.toString('hex')}`);
  }

  openSecretKey(metadataKey: string, metadataHash: Buffer, sealed: Buffer): string {
    return open(deriveKey(this.masterKey, KEY_LABELS.metadataSecretKey, metadataKey), sealed, `metadata:${metadataHash.toString('hex')}`).toString('utf8');
  }

  sealMetadataKey(custid: string, metadataHash: Buffer, metadataKey: string): Buffer {
    return seal(this.metadataKeyKey, metadataKey, `owner:${custid}:${metadataHash.toString('hex')}`);
  }

  openMetadataKey(custid: string, metadataHash: Buffer, sealed: Buffer): string {
    return open(this.metadataKeyKey, sealed, `owner:${custid}:${metadataHash.toString('hex')}`).toString('utf8');
  }

  private get metadataKeyKey(): Buffer {
    return (this.metadataKeyCache ??= deriveKey(this.masterKey, KEY_LABELS.metadataOwnerKey));
  }

  private metadataKeyCache: Buffer | undefined;

  sealOutbox(id: string, payload: string): Buffer {
    return seal(this.outboxKey, payload, `outbox:${id}`);
  }

  openOutbox(id: string, sealed: Buffer): string {
    return open(this.outboxKey, sealed, `outbox:${id}`).toString('utf8');
  }

  /**
   * Where a creator's notifications go, kept on the metadata under the outbox key (the relay opens
   * it as it opens any outbox row), bound to the metadata hash: the reveal, burn and sweep
   * statements copy it into the outbox as it is.
   */
  sealNotify(metadataHash: Buffer, payload: string): Buffer {
    return seal(this.outboxKey, payload, `notify:${metadataHash.toString('hex')}`);
  }

  openNotify(metadataHash: Buffer, sealed: Buffer): string {
    return open(this.outboxKey, sealed, `notify:${metadataHash.toString('hex')}`).toString('utf8');
  }

  private get outboxKey(): Buffer {
    return (this.outboxKeyCache ??= deriveKey(this.masterKey, KEY_LABELS.outbox));
  }

  private outboxKeyCache: Buffer | undefined;

  /** A request's key for its owner's list (as the metadata key for `recent`): the owner's custid in the AAD. */
  sealRequestKey(custid: string, requestHash: Buffer, requestKey: string): Buffer {
    return seal(this.requestOwnerKey, requestKey, `request:${custid}:${requestHash.toString('hex')}`);
  }

  openRequestKey(custid: string, requestHash: Buffer, sealed: Buffer): string {
    return open(this.requestOwnerKey, sealed, `request:${custid}:${requestHash.toString('hex')}`).toString('utf8');
  }

  private get requestOwnerKey(): Buffer {
    return (this.requestOwnerKeyCache ??= deriveKey(this.masterKey, KEY_LABELS.requestOwnerKey));
  }

  private requestOwnerKeyCache: Buffer | undefined;

  /** The address of the person asked (for the request e-mail), bound to the request's id. */
  sealRequestRecipient(id: string, address: string): Buffer {
    return seal(deriveKey(this.masterKey, KEY_LABELS.requestRecipient), address, `request-recipient:${id}`);
  }

  openRequestRecipient(id: string, sealed: Buffer): string {
    return open(deriveKey(this.masterKey, KEY_LABELS.requestRecipient), sealed, `request-recipient:${id}`).toString('utf8');
  }

  /** The one address that may read a recipient-only secret, opened only with the secret key. */
  sealRecipient(secretKey: string, secretHash: Buffer, address: string): Buffer {
    return seal(deriveKey(this.masterKey, KEY_LABELS.secretRecipient, secretKey), address, `recipient:${secretHash.toString('hex')}`);
  }

  openRecipient(secretKey: string, secretHash: Buffer, sealed: Buffer): string {
    return open(deriveKey(this.masterKey, KEY_LABELS.secretRecipient, secretKey), sealed, `recipient:${secretHash.toString('hex')}`).toString('utf8');
  }

  /** A handed-over credential's label, sealed like the recipient's address (under the secret key). */
  sealHandover(secretKey: string, secretHash: Buffer, label: HandoverLabel): Buffer {
    return seal(deriveKey(this.masterKey, KEY_LABELS.secretHandover, secretKey), JSON.stringify(label), `handover:${secretHash.toString('hex')}`);
  }

  /** The label `sealHandover` sealed; undefined when it does not open or read as a label (never fails a page). */
  openHandover(secretKey: string, secretHash: Buffer, sealed: Buffer): HandoverLabel | undefined {
    try {
      const text = open(deriveKey(this.masterKey, KEY_LABELS.secretHandover, secretKey), sealed, `handover:${secretHash.toString('hex')}`).toString('utf8');
      const label = handoverLabel.safeParse(JSON.parse(text));
      return label.success ? label.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** A one-time code as stored: HMAC under a MASTER_KEY-derived key, bound to its secret (a copy of the table guesses nothing offline). */
  codeHash(secretHash: Buffer, code: string): Buffer {
    this.codeKeyCache ??= deriveKey(this.masterKey, KEY_LABELS.recipientCode);
    return createHmac('sha256', this.codeKeyCache)
      .update(`${secretHash.toString('hex')}:${code}`)
      .digest();
  }

  private codeKeyCache: Buffer | undefined;
}
