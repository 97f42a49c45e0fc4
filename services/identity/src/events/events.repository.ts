import type { Knex } from 'knex';
import { inBoundedBatches } from '@hush/common';
import type { AdminEvent, EventsConfig, UserEvent } from './events.types.js';
import { type Db, PageBoundaries, pageOf } from '../db/index.js';

/** What both event queries take: a time window and Keycloak's `first`/`max` paging. */
interface EventWindow {
  dateFrom?: Date | undefined;
  dateTo?: Date | undefined;
  /** By time: newest first (`desc`, the default, Keycloak's order) or oldest first. */
  direction?: 'asc' | 'desc' | undefined;
  first?: number | undefined;
  max?: number | undefined;
}

export interface UserEventFilter extends EventWindow {
  types?: string[] | undefined;
  client?: string | undefined;
  user?: string | undefined;
  ipAddress?: string | undefined;
}

export interface AdminEventFilter extends EventWindow {
  operationTypes?: string[] | undefined;
  resourceTypes?: string[] | undefined;
  resourcePath?: string | undefined;
  authClient?: string | undefined;
  authUser?: string | undefined;
  authIpAddress?: string | undefined;
}

/** Where a page of events ended: its last event's time (as PostgreSQL wrote it, to the microsecond) and id. */
type EventKey = { time: string; id: string };

/**
 * Newest first (oldest first with `direction: 'asc'`), within the window, one page, in the order of
 * the indexes on `(time DESC, id DESC)` (alone, or after the user, client or type filtered on; read
 * backwards for the oldest first). A page that follows the one before it starts after that page's
 * last event (db/page-boundaries.ts); `list` names the query's filters.
 */
function windowed<R extends { time_key: string; id: string }>(q: Knex.QueryBuilder, f: EventWindow, pages: PageBoundaries<EventKey>, list: string): Promise<R[]> {
  const direction = f.direction ?? 'desc';
  q.select(q.client.raw(`"time"::text AS time_key`)).orderBy('time', direction).orderBy('id', direction);
  if (f.dateFrom) q.where('time', '>=', f.dateFrom);
  if (f.dateTo) q.where('time', '<', f.dateTo);
  return pageOf(
    pages,
    list,
    f,
    (r: R) => ({ time: r.time_key, id: r.id }),
    async (after, offset, limit) => {
      const page = q.clone();
      if (after) page.whereRaw(`("time", id) ${direction === 'asc' ? '>' : '<'} (?::timestamptz, ?::bigint)`, [after.time, after.id]);
      if (offset) page.offset(offset);
      if (limit !== undefined) page.limit(limit);
      return (await page) as R[];
    },
  );
}

type UserRow = {
  id: string;
  time_key: string;
  time: Date;
  type: string;
  client_id: string | null;
  user_id: string | null;
  session_id: string | null;
  ip_address: string | null;
  error: string | null;
  details: Record<string, string> | null;
};
type AdminRow = {
  id: string;
  time_key: string;
  time: Date;
  operation_type: string;
  resource_type: string;
  resource_path: string;
  auth_client_id: string | null;
  auth_user_id: string | null;
  auth_ip_address: string | null;
  representation: string | null;
  error: string | null;
};
type ConfigRow = {
  id: number;
  events_enabled: boolean;
  admin_events_enabled: boolean;
  admin_events_details_enabled: boolean;
  enabled_event_types: string[];
  events_expiration: number | null;
};

const undefinedIfNull = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

/** Events' storage: batched inserts (one statement per batch), Keycloak's queries, retention. */
export class EventsRepository {
  /** Where recent pages of the event lists ended (keyset paging behind first/max). */
  private readonly pages = { events: new PageBoundaries<EventKey>(), adminEvents: new PageBoundaries<EventKey>() };

  constructor(private readonly db: Db) {}

  /** One INSERT for the whole batch: the rows travel as one JSON document. */
  async insertUserEvents(events: readonly UserEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.raw(
      `INSERT INTO events (time, type, client_id, user_id, session_id, ip_address, error, details)
       SELECT to_timestamp(e.t / 1000.0), e.type, e.c, e.u, e.s, e.ip, e.err, e.d
       FROM jsonb_to_recordset(?::jsonb) AS e(t bigint, type text, c text, u text, s text, ip text, err text, d jsonb)`,
      [
        JSON.stringify(
          events.map((e) => ({
            t: e.time,
            type: e.type,
            c: e.clientId ?? null,
            u: e.userId ?? null,
            s: e.sessionId ?? null,
            ip: e.ipAddress ?? null,
            err: e.error ?? null,
            d: e.details ?? null,
          })),
        ),
      ],
    );
  }

  async insertAdminEvents(events: readonly AdminEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.raw(
      `INSERT INTO admin_events (time, operation_type, resource_type, resource_path, auth_client_id, auth_user_id, auth_ip_address, representation, error)
       SELECT to_timestamp(e.t / 1000.0), e.o, e.rt, e.rp, e.c, e.u, e.ip, e.rep, e.err
       FROM jsonb_to_recordset(?::jsonb) AS e(t bigint, o text, rt text, rp text, c text, u text, ip text, rep text, err text)`,
      [
        JSON.stringify(
          events.map((e) => ({
            t: e.time,
            o: e.operationType,
            rt: e.resourceType,
            rp: e.resourcePath,
            c: e.authDetails.clientId ?? null,
            u: e.authDetails.userId ?? null,
            ip: e.authDetails.ipAddress ?? null,
            rep: e.representation ?? null,
            err: e.error ?? null,
          })),
        ),
      ],
    );
  }

  async userEvents(f: UserEventFilter): Promise<UserEvent[]> {
    const q = this.db('events').select('*');
    if (f.types?.length) q.whereIn('type', f.types);
    if (f.client !== undefined) q.where('client_id', f.client);
    if (f.user !== undefined) q.where('user_id', f.user);
    if (f.ipAddress !== undefined) q.where('ip_address', f.ipAddress);
    const { first: _first, max: _max, ...list } = f;
    return (await windowed<UserRow>(q, f, this.pages.events, JSON.stringify(list))).map((r) => ({
      time: r.time.getTime(),
      type: r.type as UserEvent['type'],
      clientId: undefinedIfNull(r.client_id),
      userId: undefinedIfNull(r.user_id),
      sessionId: undefinedIfNull(r.session_id),
      ipAddress: undefinedIfNull(r.ip_address),
      error: undefinedIfNull(r.error),
      details: undefinedIfNull(r.details),
    }));
  }

  async adminEvents(f: AdminEventFilter): Promise<AdminEvent[]> {
    const q = this.db('admin_events').select('*');
    if (f.operationTypes?.length) q.whereIn('operation_type', f.operationTypes);
    if (f.resourceTypes?.length) q.whereIn('resource_type', f.resourceTypes);
    // Keycloak's resourcePath filter takes `*` as a wildcard.
    if (f.resourcePath !== undefined) q.whereRaw(`resource_path LIKE ?`, [f.resourcePath.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%')]);
    if (f.authClient !== undefined) q.where('auth_client_id', f.authClient);
    if (f.authUser !== undefined) q.where('auth_user_id', f.authUser);
    if (f.authIpAddress !== undefined) q.where('auth_ip_address', f.authIpAddress);
    const { first: _first, max: _max, ...list } = f;
    return (await windowed<AdminRow>(q, f, this.pages.adminEvents, JSON.stringify(list))).map((r) => ({
      time: r.time.getTime(),
      operationType: r.operation_type as AdminEvent['operationType'],
      resourceType: r.resource_type,
      resourcePath: r.resource_path,
      authDetails: { realmId: 'public', clientId: undefinedIfNull(r.auth_client_id), userId: undefinedIfNull(r.auth_user_id), ipAddress: undefinedIfNull(r.auth_ip_address) },
      representation: undefinedIfNull(r.representation),
      error: undefinedIfNull(r.error),
    }));
  }

  /** Every event of the table: at once, however many (a DELETE of millions of rows would outlast the statement timeout). */
  async clear(table: 'events' | 'admin_events'): Promise<void> {
    await this.db.raw('TRUNCATE ??', [table]);
  }

  /**
   * Retention: removes what is older than `seconds`, oldest first, `batchSize` per statement
   * (inBoundedBatches), so a backlog (a retention shortened, a service down for a week) goes in
   * short statements instead of one that would outlast the statement timeout and fail every time.
   */
  async deleteOlderThan(seconds: number, batchSize: number, signal?: AbortSignal): Promise<number> {
    const cutoff = new Date(Date.now() - seconds * 1000);
    let deleted = 0;
    for (const table of ['events', 'admin_events']) {
      deleted += await inBoundedBatches(
        async (limit) => {
          const { rowCount } = await this.db.raw<{ rowCount: number | null }>(
            `DELETE FROM ?? WHERE ctid = ANY(ARRAY(SELECT ctid FROM ?? WHERE "time" < ? ORDER BY "time" LIMIT ? FOR UPDATE SKIP LOCKED))`,
            [table, table, cutoff, limit],
          );
          return rowCount ?? 0;
        },
        batchSize,
        signal,
      );
    }
    return deleted;
  }

  async readConfig(): Promise<EventsConfig | undefined> {
    const row = await this.db<ConfigRow>('events_config').where({ id: 1 }).first();
    return row
      ? {
          eventsEnabled: row.events_enabled,
          adminEventsEnabled: row.admin_events_enabled,
          adminEventsDetailsEnabled: row.admin_events_details_enabled,
          enabledEventTypes: row.enabled_event_types,
          eventsExpiration: row.events_expiration,
        }
      : undefined;
  }

  async writeConfig(c: EventsConfig): Promise<void> {
    await this.db('events_config')
      .insert({
        id: 1,
        events_enabled: c.eventsEnabled,
        admin_events_enabled: c.adminEventsEnabled,
        admin_events_details_enabled: c.adminEventsDetailsEnabled,
        enabled_event_types: c.enabledEventTypes,
        events_expiration: c.eventsExpiration,
      })
      .onConflict('id')
      .merge();
  }
}
