import type { Knex } from 'knex';
import { batchedPerItem } from '../db/batch.js';
import type { Db } from '../db/knex.js';

export interface ApiToken {
  id: string;
  custid: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** What authenticating with a token yields: the account and its plan, in one indexed lookup. */
export interface TokenOwner {
  tokenId: string;
  custid: string;
  plan: string;
}

type Row = { id: string; custid: string; label: string | null; created_at: Date; revoked_at: Date | null; last_used_at: Date | null };
const toToken = (r: Row): ApiToken => ({ id: r.id, custid: r.custid, label: r.label, createdAt: r.created_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at });
const COLUMNS = ['id', 'custid', 'label', 'created_at', 'revoked_at', 'last_used_at'];

export class ApiTokensRepository {
  constructor(private readonly db: Db) {}

  async create(custid: string, tokenHash: Buffer, label: string | null): Promise<ApiToken> {
    const [row] = await this.db('api_tokens').insert({ custid, token_hash: tokenHash, label }).returning<Row[]>(COLUMNS);
    return toToken(row as Row);
  }

  /** On every Basic-authenticated request the cache misses: concurrent lookups share one `= ANY` query. */
  findOwner(tokenHash: Buffer): Promise<TokenOwner | undefined> {
    return this.findOwners(tokenHash);
  }

  private readonly findOwners = batchedPerItem(async (hashes: Buffer[]): Promise<(TokenOwner | undefined)[]> => {
    const distinct = [...new Map(hashes.map((h) => [h.toString('hex'), h])).values()];
    const { rows } = await this.db.raw<{ rows: { id: string; custid: string; plan: string; token_hash: Buffer }[] }>(
      `SELECT t.id, t.custid, a.plan, t.token_hash FROM api_tokens t JOIN accounts a ON a.custid = t.custid
       WHERE t.token_hash = ANY(?::bytea[]) AND t.revoked_at IS NULL`,
      [distinct] as unknown as readonly Knex.RawBinding[],
    );
    const owners = new Map(rows.map((r) => [r.token_hash.toString('hex'), { tokenId: r.id, custid: r.custid, plan: r.plan }]));
    return hashes.map((h) => owners.get(h.toString('hex')));
  });

  /** Revokes an active token (of `custid`, when given); false if there was none. */
  async revoke(id: string, custid?: string): Promise<boolean> {
    const query = this.db('api_tokens').where({ id }).whereNull('revoked_at');
    if (custid !== undefined) query.andWhere({ custid });
    return (await query.update({ revoked_at: this.db.fn.now() })) > 0;
  }

  /** Records a use; writes at most once a minute per token, so busy tokens cost no write per request. */
  async touch(id: string): Promise<void> {
    await this.db('api_tokens')
      .where({ id })
      .andWhere((q) => {
        void q.whereNull('last_used_at').orWhere('last_used_at', '<', this.db.raw("now() - interval '1 minute'"));
      })
      .update({ last_used_at: this.db.fn.now() });
  }

  async list(custid: string): Promise<ApiToken[]> {
    const rows = (await this.db('api_tokens').select(COLUMNS).where({ custid }).orderBy('created_at')) as Row[];
    return rows.map(toToken);
  }
}
