import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';

/** A web session as stored: found by the hash of its cookie id; the tokens stay sealed. */
export interface SessionRecord {
  idHash: Buffer;
  custid: string;
  tokensSealed: Buffer;
  accessExpiresAt: Date;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

type Row = {
  id_hash: Buffer;
  custid: string;
  tokens_sealed: Buffer;
  access_expires_at: Date;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
};
const COLUMNS = ['id_hash', 'custid', 'tokens_sealed', 'access_expires_at', 'created_at', 'last_seen_at', 'expires_at'];
const toRecord = (r: Row): SessionRecord => ({
  idHash: r.id_hash,
  custid: r.custid,
  tokensSealed: r.tokens_sealed,
  accessExpiresAt: r.access_expires_at,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
});

/**
 * The web sessions in PostgreSQL, so every replica serves every request. A session is live while
 * now < idle_expires_at (moved forward by use, never past expires_at) and now < expires_at.
 */
export class WebSessionsRepository {
  constructor(private readonly db: Db) {}

  async create(s: { idHash: Buffer; custid: string; tokensSealed: Buffer; accessExpiresAt: Date; idleSeconds: number; maxSeconds: number }): Promise<void> {
    await this.db('web_sessions').insert({
      id_hash: s.idHash,
      custid: s.custid,
      tokens_sealed: s.tokensSealed,
      access_expires_at: s.accessExpiresAt,
      idle_expires_at: this.db.raw(`now() + make_interval(secs => ?)`, [Math.min(s.idleSeconds, s.maxSeconds)]),
      expires_at: this.db.raw(`now() + make_interval(secs => ?)`, [s.maxSeconds]),
    });
  }

  async find(idHash: Buffer): Promise<SessionRecord | undefined> {
    const row = await this.live(this.db).where({ id_hash: idHash }).first<Row | undefined>();
    return row ? toRecord(row) : undefined;
  }

  /** Moves the idle deadline forward; writes at most once a minute per session. */
  async touch(idHash: Buffer, idleSeconds: number): Promise<void> {
    await this.db('web_sessions')
      .where({ id_hash: idHash })
      .andWhere('last_seen_at', '<', this.db.raw(`now() - interval '1 minute'`))
      .update({ last_seen_at: this.db.fn.now(), idle_expires_at: this.db.raw(`least(expires_at, now() + make_interval(secs => ?))`, [idleSeconds]) });
  }

  /**
   * Runs `work` with the session row locked (SELECT ... FOR UPDATE), so one replica at a time
   * refreshes its tokens: a refresh token is rotated at each use, and presenting a used one again
   * would make identity revoke the whole grant.
   */
  async locked<T>(idHash: Buffer, work: (record: SessionRecord | undefined, store: SessionStore) => Promise<T>): Promise<T> {
    return this.db.transaction(async (trx) => {
      const row = await this.live(trx).where({ id_hash: idHash }).forUpdate().first<Row | undefined>();
      return work(row ? toRecord(row) : undefined, {
        save: async (tokensSealed, accessExpiresAt) => {
          await trx('web_sessions').where({ id_hash: idHash }).update({ tokens_sealed: tokensSealed, access_expires_at: accessExpiresAt });
        },
        remove: async () => {
          await trx('web_sessions').where({ id_hash: idHash }).delete();
        },
      });
    });
  }

  async delete(idHash: Buffer): Promise<SessionRecord | undefined> {
    const [row] = await this.db('web_sessions').where({ id_hash: idHash }).delete().returning<Row[]>(COLUMNS);
    return row ? toRecord(row) : undefined;
  }

  /**
   * Deletes up to `limit` sessions past either deadline, oldest first, leaving those another
   * request holds; returns how many. The idle deadline never passes the absolute one (create and
   * touch keep it so), so it alone says a session is over, through its index.
   */
  async sweep(limit: number): Promise<number> {
    const { rowCount } = await this.db.raw<{ rowCount: number | null }>(
      `DELETE FROM web_sessions WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM web_sessions WHERE idle_expires_at <= now() ORDER BY idle_expires_at LIMIT ? FOR UPDATE SKIP LOCKED))`,
      [limit],
    );
    return rowCount ?? 0;
  }

  private live(db: Knex | Knex.Transaction) {
    return db('web_sessions').select(COLUMNS).where('idle_expires_at', '>', db.fn.now()).andWhere('expires_at', '>', db.fn.now());
  }
}

export interface SessionStore {
  save(tokensSealed: Buffer, accessExpiresAt: Date): Promise<void>;
  remove(): Promise<void>;
}
