import type { Db } from '../db/knex.js';

export interface ApiToken {
  id: string;
  custid: string;
  label: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** What authenticating with a token yields: the account and its plan, in one indexed lookup. */
export interface TokenOwner {
  tokenId: string;
  custid: string;
  plan: string;
}

type Row = { id: string; custid: string; label: string | null; created_at: Date; revoked_at: Date | null };
const toToken = (r: Row): ApiToken => ({ id: r.id, custid: r.custid, label: r.label, createdAt: r.created_at, revokedAt: r.revoked_at });
const COLUMNS = ['id', 'custid', 'label', 'created_at', 'revoked_at'];

export class ApiTokensRepository {
  constructor(private readonly db: Db) {}

  async create(custid: string, tokenHash: Buffer, label: string | null): Promise<ApiToken> {
    const [row] = await this.db('api_tokens').insert({ custid, token_hash: tokenHash, label }).returning(COLUMNS);
    return toToken(row as Row);
  }

  async findOwner(tokenHash: Buffer): Promise<TokenOwner | undefined> {
    const row = await this.db('api_tokens as t')
      .join('accounts as a', 'a.custid', 't.custid')
      .select('t.id', 't.custid', 'a.plan')
      .where('t.token_hash', tokenHash)
      .whereNull('t.revoked_at')
      .first();
    return row ? { tokenId: row.id as string, custid: row.custid as string, plan: row.plan as string } : undefined;
  }

  async find(id: string): Promise<ApiToken | undefined> {
    const row = (await this.db('api_tokens').select(COLUMNS).where({ id }).first()) as Row | undefined;
    return row ? toToken(row) : undefined;
  }

  /** Revokes an active token (of `custid`, when given); false if there was none. */
  async revoke(id: string, custid?: string): Promise<boolean> {
    const query = this.db('api_tokens').where({ id }).whereNull('revoked_at');
    if (custid !== undefined) query.andWhere({ custid });
    return (await query.update({ revoked_at: this.db.fn.now() })) > 0;
  }

  async list(custid: string): Promise<ApiToken[]> {
    const rows = (await this.db('api_tokens').select(COLUMNS).where({ custid }).orderBy('created_at')) as Row[];
    return rows.map(toToken);
  }
}
