import type { Db } from '../db/index.js';

export type KeyStatus = 'next' | 'active' | 'retiring';

export interface SigningKeyRow {
  kid: string;
  alg: string;
  status: KeyStatus;
  publicJwk: Record<string, unknown>;
  privateJwkSealed: Buffer;
  createdAt: Date;
  activatedAt: Date | null;
  retireAfter: Date | null;
}

type Row = {
  kid: string;
  alg: string;
  status: KeyStatus;
  public_jwk: Record<string, unknown>;
  private_jwk_sealed: Buffer;
  created_at: Date;
  activated_at: Date | null;
  retire_after: Date | null;
};

const toKey = (r: Row): SigningKeyRow => ({
  kid: r.kid,
  alg: r.alg,
  status: r.status,
  publicJwk: r.public_jwk,
  privateJwkSealed: r.private_jwk_sealed,
  createdAt: r.created_at,
  activatedAt: r.activated_at,
  retireAfter: r.retire_after,
});

// Signing order: oidc-provider signs with the first key of an algorithm, so the `active` ones lead.
const ORDER = `CASE status WHEN 'active' THEN 0 WHEN 'next' THEN 1 ELSE 2 END, created_at DESC`;

export class KeysRepository {
  constructor(private readonly db: Db) {}

  async insert(key: Pick<SigningKeyRow, 'kid' | 'alg' | 'status' | 'publicJwk' | 'privateJwkSealed'>): Promise<void> {
    await this.db('signing_keys').insert({
      kid: key.kid,
      alg: key.alg,
      status: key.status,
      public_jwk: JSON.stringify(key.publicJwk),
      private_jwk_sealed: key.privateJwkSealed,
      activated_at: key.status === 'active' ? this.db.fn.now() : null,
    });
  }

  async list(): Promise<SigningKeyRow[]> {
    return (await this.db<Row>('signing_keys').orderByRaw(ORDER)).map(toKey);
  }

  /** A cheap fingerprint of the published set; processes compare it to decide whether to reload. */
  async fingerprint(): Promise<string> {
    const rows = await this.db<Row>('signing_keys').select('kid', 'status').orderByRaw(ORDER);
    return rows.map((r) => `${r.kid}:${r.status}`).join(',');
  }

  /**
   * For each algorithm with a `next` key: next → active and active → retiring, all in one
   * transaction (the partial unique index allows one active key per algorithm). Returns the
   * promoted kids, or undefined when there is no next key.
   */
  async promoteNext(retireAfterSeconds: number): Promise<{ promoted: string[]; retiring: string[] } | undefined> {
    return this.db.transaction(async (trx) => {
      const nexts = await trx<Row>('signing_keys').where({ status: 'next' }).orderBy('created_at').forUpdate();
      const byAlg = new Map<string, Row>();
      for (const key of nexts) if (!byAlg.has(key.alg)) byAlg.set(key.alg, key);
      if (byAlg.size === 0) return undefined;
      const promoted: string[] = [];
      const retiring: string[] = [];
      for (const [alg, next] of byAlg) {
        const old = await trx<Row>('signing_keys')
          .where({ status: 'active', alg })
          .update({ status: 'retiring', retire_after: trx.raw(`now() + make_interval(secs => ?)`, [retireAfterSeconds]) })
          .returning('kid');
        retiring.push(...old.map((r) => r.kid));
        await trx('signing_keys').where({ kid: next.kid }).update({ status: 'active', activated_at: trx.fn.now() });
        promoted.push(next.kid);
      }
      return { promoted, retiring };
    });
  }

  /** Deletes retiring keys whose tokens have all expired; `force` retires them now. */
  async deleteRetired(force: boolean): Promise<string[]> {
    const query = this.db('signing_keys').where({ status: 'retiring' });
    if (!force) query.andWhere('retire_after', '<=', this.db.fn.now());
    const rows = await query.delete().returning<{ kid: string }[]>('kid');
    return rows.map((r) => r.kid);
  }
}
