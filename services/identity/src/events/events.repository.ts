import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import type { AdminEvent, EventsConfig, UserEvent } from './events.types.js';

/** What both event queries take: a time window and Keycloak's `first`/`max` paging. */
interface EventWindow {
  dateFrom?: Date | undefined;
  dateTo?: Date | undefined;
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

/** Newest first, within the window, one page. */
function windowed<Q extends Knex.QueryBuilder>(q: Q, f: EventWindow): Q {
  q.orderBy('time', 'desc').orderBy('id', 'desc');
  if (f.dateFrom) q.where('time', '>=', f.dateFrom);
  if (f.dateTo) q.where('time', '<', f.dateTo);
  if (f.first) q.offset(f.first);
  if (f.max !== undefined && f.max >= 0) q.limit(f.max);
  return q;
}

type UserRow = {
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
    const q = this.db<UserRow>('events');
    if (f.types?.length) q.whereIn('type', f.types);
    if (f.client !== undefined) q.where('client_id', f.client);
    if (f.user !== undefined) q.where('user_id', f.user);
    if (f.ipAddress !== undefined) q.where('ip_address', f.ipAddress);
    return (await windowed(q, f)).map((r) => ({
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
    const q = this.db<AdminRow>('admin_events');
    if (f.operationTypes?.length) q.whereIn('operation_type', f.operationTypes);
    if (f.resourceTypes?.length) q.whereIn('resource_type', f.resourceTypes);
    // Keycloak's resourcePath filter takes `*` as a wildcard.
    if (f.resourcePath !== undefined) q.whereRaw(`resource_path LIKE ?`, [f.resourcePath.replace(/[\\%_]/g, '\\$&').replace(/\*/g, '%')]);
    if (f.authClient !== undefined) q.where('auth_client_id', f.authClient);
    if (f.authUser !== undefined) q.where('auth_user_id', f.authUser);
    if (f.authIpAddress !== undefined) q.where('auth_ip_address', f.authIpAddress);
    return (await windowed(q, f)).map((r) => ({
      time: r.time.getTime(),
      operationType: r.operation_type as AdminEvent['operationType'],
      resourceType: r.resource_type,
      resourcePath: r.resource_path,
      authDetails: { realmId: 'public', clientId: undefinedIfNull(r.auth_client_id), userId: undefinedIfNull(r.auth_user_id), ipAddress: undefinedIfNull(r.auth_ip_address) },
      representation: undefinedIfNull(r.representation),
      error: undefinedIfNull(r.error),
    }));
  }

  async clear(table: 'events' | 'admin_events'): Promise<void> {
    await this.db(table).delete();
  }

  /** Retention: removes what is older than `seconds`. */
  async deleteOlderThan(seconds: number): Promise<number> {
    const cutoff = new Date(Date.now() - seconds * 1000);
    const a = await this.db('events').where('time', '<', cutoff).delete();
    const b = await this.db('admin_events').where('time', '<', cutoff).delete();
    return a + b;
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
