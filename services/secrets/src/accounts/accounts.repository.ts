import type { Db } from '../db/knex.js';
import { isUniqueViolation } from '@hush/common';
import { AccountExistsError } from '../errors.js';

export interface Account {
  custid: string;
  plan: string;
  createdAt: Date;
}

type Row = { custid: string; plan: string; created_at: Date };
const toAccount = (r: Row): Account => ({ custid: r.custid, plan: r.plan, createdAt: r.created_at });

export class AccountsRepository {
  constructor(private readonly db: Db) {}

  async create(custid: string, plan: string): Promise<Account> {
    try {
      const [row] = await this.db<Row>('accounts').insert({ custid, plan }).returning(['custid', 'plan', 'created_at']);
      return toAccount(row as Row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AccountExistsError(custid);
      throw err;
    }
  }

  /** The account, created with `plan` if it does not exist yet. */
  async ensure(custid: string, plan: string): Promise<Account> {
    await this.db('accounts').insert({ custid, plan }).onConflict('custid').ignore();
    return (await this.find(custid)) as Account;
  }

  async find(custid: string): Promise<Account | undefined> {
    const row = await this.db<Row>('accounts').select('custid', 'plan', 'created_at').where({ custid }).first();
    return row ? toAccount(row) : undefined;
  }

  async planOf(custid: string): Promise<string | undefined> {
    const row = await this.db<Row>('accounts').select('plan').where({ custid }).first();
    return row?.plan;
  }

  async setPlan(custid: string, plan: string): Promise<Account> {
    const [row] = await this.db<Row>('accounts')
      .insert({ custid, plan })
      .onConflict('custid')
      .merge({ plan, updated_at: this.db.fn.now() } as Partial<Row>)
      .returning(['custid', 'plan', 'created_at']);
    return toAccount(row as Row);
  }

  async list(): Promise<Account[]> {
    return (await this.db<Row>('accounts').select('custid', 'plan', 'created_at').orderBy('custid')).map(toAccount);
  }
}
