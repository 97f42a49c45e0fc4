import { deriveKey, open, seal } from '@hush/common';

/**
 * Every key of a secret is derived with HKDF from MASTER_KEY and something the database never
 * holds in clear:
 * - the value: HKDF(MASTER_KEY, salt = secret_key), then, with a passphrase, HKDF(that, salt =
 *   passphrase) (spec 4.2 rule 1: the passphrase is used to encrypt the secret). A copy of the
 *   database plus MASTER_KEY therefore decrypts nothing, and a deleted row is gone for good.
 * - the metadata's copy of the secret key: HKDF(MASTER_KEY, salt = metadata_key).
 * - the recipient address: HKDF(MASTER_KEY) alone, as the delivery job must read it without keys.
 * The AAD binds each ciphertext to its row (the hash of its key), so rows cannot be swapped.
 */
export class SecretCrypto {
  constructor(private readonly masterKey: Buffer) {}

  private valueKey(secretKey: string, passphrase: string | undefined): Buffer {
    const base = deriveKey(this.masterKey, 'hush:secret:value:v1', secretKey);
    return passphrase === undefined ? base : deriveKey(base, 'hush:secret:passphrase:v1', passphrase);
  }

  sealValue(secretKey: string, secretHash: Buffer, passphrase: string | undefined, value: string): Buffer {
    return seal(this.valueKey(secretKey, passphrase), value, `secret:${secretHash.toString('hex')}`);
  }

  openValue(secretKey: string, secretHash: Buffer, passphrase: string | undefined, sealed: Buffer): string {
    return open(this.valueKey(secretKey, passphrase), sealed, `secret:${secretHash.toString('hex')}`).toString('utf8');
  }

  sealSecretKey(metadataKey: string, metadataHash: Buffer, secretKey: string): Buffer {
    return seal(deriveKey(this.masterKey, 'hush:metadata:secret-key:v1', metadataKey), secretKey, `metadata:${metadataHash.toString('hex')}`);
  }

  openSecretKey(metadataKey: string, metadataHash: Buffer, sealed: Buffer): string {
    return open(deriveKey(this.masterKey, 'hush:metadata:secret-key:v1', metadataKey), sealed, `metadata:${metadataHash.toString('hex')}`).toString('utf8');
  }

  sealRecipient(metadataHash: Buffer, address: string): Buffer {
    return seal(deriveKey(this.masterKey, 'hush:metadata:recipient:v1'), address, `recipient:${metadataHash.toString('hex')}`);
  }

  openRecipient(metadataHash: Buffer, sealed: Buffer): string {
    return open(deriveKey(this.masterKey, 'hush:metadata:recipient:v1'), sealed, `recipient:${metadataHash.toString('hex')}`).toString('utf8');
  }
}
