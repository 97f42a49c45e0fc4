import { isUuid } from '@hush/common';
import type { Db } from '../db/index.js';

export type CredentialType = 'otp' | 'webauthn-passwordless';

export interface StoredCredential {
  id: string;
  userId: string;
  type: CredentialType;
  userLabel: string | null;
  createdAt: Date;
}

export interface TotpCredential extends StoredCredential {
  type: 'otp';
  secretSealed: Buffer;
  lastStep: number | null;
}

export interface PasskeyCredential extends StoredCredential {
  type: 'webauthn-passwordless';
  webauthnId: string;
  publicKey: Buffer;
  signCount: number;
  transports: string[];
}

type Row = {
  id: string;
  user_id: string;
  type: CredentialType;
  user_label: string | null;
  secret_sealed: Buffer | null;
  last_step: string | null;
  webauthn_id: string | null;
  public_key: Buffer | null;
  sign_count: string;
  transports: string[];
  created_at: Date;
};

const base = (r: Row): StoredCredential => ({ id: r.id, userId: r.user_id, type: r.type, userLabel: r.user_label, createdAt: r.created_at });
const toTotp = (r: Row): TotpCredential => ({ ...base(r), type: 'otp', secretSealed: r.secret_sealed as Buffer, lastStep: r.last_step === null ? null : Number(r.last_step) });
const toPasskey = (r: Row): PasskeyCredential => ({
  ...base(r),
  type: 'webauthn-passwordless',
  webauthnId: r.webauthn_id as string,
  publicKey: r.public_key as Buffer,
  signCount: Number(r.sign_count),
  transports: r.transports,
});

/** Second factors, passkeys and recovery codes. Every "use once" rule is one conditional statement here. */
export class CredentialsRepository {
  constructor(private readonly db: Db) {}

  async list(userId: string): Promise<StoredCredential[]> {
    if (!isUuid(userId)) return [];
    return (await this.db<Row>('user_credentials').where({ user_id: userId }).orderBy('created_at')).map(base);
  }

  async hasType(userId: string, type: CredentialType): Promise<boolean> {
    if (!isUuid(userId)) return false;
    return (await this.db('user_credentials').where({ user_id: userId, type }).first('id')) !== undefined;
  }

  /** The credential types each of these users holds (one query on the user index): users holding none are absent. */
  async typesOfUsers(userIds: readonly string[]): Promise<Map<string, CredentialType[]>> {
    const ids = userIds.filter(isUuid);
    const out = new Map<string, CredentialType[]>();
    if (ids.length === 0) return out;
    const rows = await this.db<Row>('user_credentials').distinct('user_id', 'type').whereIn('user_id', ids).orderBy(['user_id', 'type']);
    for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.type]);
    return out;
  }

  async findTotp(userId: string): Promise<TotpCredential | undefined> {
    if (!isUuid(userId)) return undefined;
    const row = await this.db<Row>('user_credentials').where({ user_id: userId, type: 'otp' }).first();
    return row ? toTotp(row) : undefined;
  }

  /**
   * Stores a user's TOTP credential with its recovery codes, replacing any earlier one and its
   * codes, in one transaction. `seal(id)` seals the secret bound to the new row's id.
   */
  async replaceTotp(userId: string, id: string, secretSealed: Buffer, acceptedStep: number, codeHashes: string[], label: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('user_credentials').where({ user_id: userId, type: 'otp' }).delete();
      await trx('recovery_codes').where({ user_id: userId }).delete();
      await trx('user_credentials').insert({ id, user_id: userId, type: 'otp', user_label: label, secret_sealed: secretSealed, last_step: acceptedStep });
      await trx('recovery_codes').insert(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })));
    });
  }

  /**
   * Records `step` as the credential's last accepted step, only if it is later than the one
   * stored: of two requests with the same code, exactly one gets true.
   */
  async acceptStep(credentialId: string, step: number): Promise<boolean> {
    const updated = await this.db('user_credentials')
      .where({ id: credentialId, type: 'otp' })
      .andWhere((q) => {
        void q.whereNull('last_step').orWhere('last_step', '<', step);
      })
      .update({ last_step: step });
    return updated === 1;
  }

  /** Spends a recovery code: true for the one request that marks it used. */
  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const updated = await this.db('recovery_codes').where({ user_id: userId, code_hash: codeHash }).whereNull('used_at').update({ used_at: this.db.fn.now() });
    return updated === 1;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    if (!isUuid(userId)) return 0;
    const [row] = await this.db('recovery_codes').where({ user_id: userId }).whereNull('used_at').count<{ count: string }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  }

  /** New recovery codes for a user who has a TOTP credential (the old ones stop working). */
  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const totp: unknown = await trx('user_credentials').where({ user_id: userId, type: 'otp' }).forUpdate().first('id');
      if (!totp) return false;
      await trx('recovery_codes').where({ user_id: userId }).delete();
      await trx('recovery_codes').insert(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })));
      return true;
    });
  }

  /** Deletes one credential of the user; a TOTP credential takes its recovery codes with it. */
  async delete(userId: string, credentialId: string): Promise<StoredCredential | undefined> {
    if (!isUuid(userId) || !isUuid(credentialId)) return undefined;
    return this.db.transaction(async (trx) => {
      const [row] = (await trx('user_credentials').where({ id: credentialId, user_id: userId }).delete().returning('*')) as Row[];
      if (!row) return undefined;
      if (row.type === 'otp') await trx('recovery_codes').where({ user_id: userId }).delete();
      return base(row);
    });
  }

  async addPasskey(input: { userId: string; label: string; webauthnId: string; publicKey: Buffer; signCount: number; transports: string[] }): Promise<StoredCredential> {
    const [row] = (await this.db('user_credentials')
      .insert({
        user_id: input.userId,
        type: 'webauthn-passwordless',
        user_label: input.label,
        webauthn_id: input.webauthnId,
        public_key: input.publicKey,
        sign_count: input.signCount,
        transports: input.transports,
      })
      .returning('*')) as Row[];
    return base(row as Row);
  }

  async passkeys(userId: string): Promise<PasskeyCredential[]> {
    if (!isUuid(userId)) return [];
    return (await this.db<Row>('user_credentials').where({ user_id: userId, type: 'webauthn-passwordless' }).orderBy('created_at')).map(toPasskey);
  }

  async findPasskey(webauthnId: string): Promise<PasskeyCredential | undefined> {
    const row = await this.db<Row>('user_credentials').where({ webauthn_id: webauthnId, type: 'webauthn-passwordless' }).first();
    return row ? toPasskey(row) : undefined;
  }

  /**
   * Moves the signature counter forward (WebAuthn §6.1.1): only from the value the verification
   * read, so two concurrent uses of one assertion cannot both pass.
   */
  async advanceSignCount(id: string, from: number, to: number): Promise<boolean> {
    return (await this.db('user_credentials').where({ id, sign_count: from }).update({ sign_count: to })) === 1;
  }

  /** Whether the user's organization requires a second factor. */
  async organizationRequires(organizationId: string | null): Promise<boolean> {
    if (!organizationId) return false;
    const row: { require_second_factor?: boolean } | undefined = await this.db('organizations').where('id', organizationId).first('require_second_factor');
    return row?.require_second_factor === true;
  }
}
