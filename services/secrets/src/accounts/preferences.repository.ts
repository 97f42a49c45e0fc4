import { NOTIFY_EVENTS, type NotifyEvent } from '@hush/queue';
import type { Db } from '../db/knex.js';

/** An account's defaults for the share page. */
export interface Preferences {
  /** The events the share page ticks for a new secret (the creator may untick them). */
  notifyOn: NotifyEvent[];
}

const isNotifyEvent = (e: string): e is NotifyEvent => (NOTIFY_EVENTS as readonly string[]).includes(e);

/** The web app's settings of each account (`account_settings`); an account without a row has the defaults. */
export class PreferencesRepository {
  constructor(private readonly db: Db) {}

  async get(custid: string): Promise<Preferences> {
    const row = await this.db('account_settings').select<{ notify_on: string[] }[]>('notify_on').where({ custid }).first();
    return { notifyOn: (row?.notify_on ?? []).filter(isNotifyEvent) };
  }

  async save(custid: string, p: Preferences): Promise<void> {
    await this.db.raw(
      `INSERT INTO account_settings (custid, notify_on, updated_at) VALUES (?, ?::text[], now())
       ON CONFLICT (custid) DO UPDATE SET notify_on = EXCLUDED.notify_on, updated_at = now()`,
      [custid, p.notifyOn as unknown as string],
    );
  }
}
