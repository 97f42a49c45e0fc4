import { z } from 'zod';
import { USER_EVENT_TYPES } from '../events/index.js';
import { requireRealmWide } from './admin-caller.js';
import type { AdminDeps } from './admin-deps.js';
import { defineAdminRoute } from './admin-route.js';
import { EVENTS_PAGE, paging, sorting } from './admin-schemas.js';

/** The audit trail (Keycloak's `/events`, `/admin-events`, `/events/config`). Realm-wide only. */

const VIEW = ['view-events'] as const;
const MANAGE = ['manage-events'] as const;

/** One value or several (`?type=LOGIN&type=LOGOUT`, or comma-separated). */
const many = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) =>
    v === undefined
      ? undefined
      : [v]
          .flat()
          .flatMap((s) => s.split(','))
          .filter(Boolean),
  );
/** Keycloak's dates: `yyyy-MM-dd` or epoch milliseconds. */
const date = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const d = /^\d+$/.test(v) ? new Date(Number(v)) : new Date(v);
    if (Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'a date is yyyy-MM-dd or epoch milliseconds' });
      return z.NEVER;
    }
    return d;
  });
/** `dateTo` names a day: up to its end. */
const endOf = (d: Date | undefined, raw: string | undefined) => (d && raw && !/^\d+$/.test(raw) ? new Date(d.getTime() + 86_400_000) : d);

export const userEvent = z.object({
  time: z.number(),
  type: z.string(),
  realmId: z.literal('public'),
  clientId: z.string().optional(),
  userId: z.string().optional(),
  sessionId: z.string().optional(),
  ipAddress: z.string().optional(),
  error: z.string().optional(),
  details: z.record(z.string(), z.string()).optional(),
});

export const adminEvent = z.object({
  time: z.number(),
  realmId: z.literal('public'),
  operationType: z.string(),
  resourceType: z.string(),
  resourcePath: z.string(),
  authDetails: z.object({ realmId: z.string(), clientId: z.string().optional(), userId: z.string().optional(), ipAddress: z.string().optional() }),
  representation: z.string().optional(),
  error: z.string().optional(),
});

const eventsConfig = z.object({
  eventsEnabled: z.boolean(),
  eventsExpiration: z.number().int().optional(),
  eventsListeners: z.array(z.string()),
  enabledEventTypes: z.array(z.string()),
  adminEventsEnabled: z.boolean(),
  adminEventsDetailsEnabled: z.boolean(),
});

const eventsConfigInput = z
  .object({
    eventsEnabled: z.boolean().optional(),
    eventsExpiration: z.number().int().min(0).nullish(),
    enabledEventTypes: z.array(z.enum(USER_EVENT_TYPES)).optional(),
    adminEventsEnabled: z.boolean().optional(),
    adminEventsDetailsEnabled: z.boolean().optional(),
  })
  .loose();

export const eventRoutes = [
  defineAdminRoute({
    operationId: 'listEvents',
    summary: `User events, newest first (oldest first with \`direction=asc\`); filters as Keycloak's (\`type\` may repeat). ${EVENTS_PAGE} per page unless \`max\`.`,
    method: 'get',
    path: '/events',
    roles: VIEW,
    query: z.object({
      type: many,
      client: z.string().optional(),
      user: z.string().optional(),
      ipAddress: z.string().optional(),
      dateFrom: date,
      dateTo: date,
      ...sorting(['time']),
      ...paging(EVENTS_PAGE),
    }),
    ok: { status: 200, schema: z.array(userEvent), description: 'Events' },
    async handle(deps: AdminDeps, { query, caller }, req) {
      requireRealmWide(caller);
      const events = await deps.eventsRepository.userEvents({ ...query, types: query.type, dateTo: endOf(query.dateTo, req.query['dateTo'] as string | undefined) });
      return events.map((e) => ({ ...e, realmId: 'public' as const }));
    },
  }),
  defineAdminRoute({
    operationId: 'clearEvents',
    summary: 'Deletes every user event.',
    method: 'delete',
    path: '/events',
    roles: MANAGE,
    ok: { status: 204, description: 'Deleted' },
    async handle(deps: AdminDeps, { caller }) {
      requireRealmWide(caller);
      await deps.eventsRepository.clear('events');
    },
  }),
  defineAdminRoute({
    operationId: 'listAdminEvents',
    summary: `Admin events, newest first (oldest first with \`direction=asc\`); filters as Keycloak's (\`resourcePath\` takes \`*\`). ${EVENTS_PAGE} per page unless \`max\`.`,
    method: 'get',
    path: '/admin-events',
    roles: VIEW,
    query: z.object({
      operationTypes: many,
      resourceTypes: many,
      resourcePath: z.string().optional(),
      authClient: z.string().optional(),
      authUser: z.string().optional(),
      authIpAddress: z.string().optional(),
      dateFrom: date,
      dateTo: date,
      ...sorting(['time']),
      ...paging(EVENTS_PAGE),
    }),
    ok: { status: 200, schema: z.array(adminEvent), description: 'Admin events' },
    async handle(deps: AdminDeps, { query, caller }, req) {
      requireRealmWide(caller);
      const events = await deps.eventsRepository.adminEvents({ ...query, dateTo: endOf(query.dateTo, req.query['dateTo'] as string | undefined) });
      return events.map((e) => ({ ...e, realmId: 'public' as const }));
    },
  }),
  defineAdminRoute({
    operationId: 'clearAdminEvents',
    summary: 'Deletes every admin event.',
    method: 'delete',
    path: '/admin-events',
    roles: MANAGE,
    ok: { status: 204, description: 'Deleted' },
    async handle(deps: AdminDeps, { caller }) {
      requireRealmWide(caller);
      await deps.eventsRepository.clear('admin_events');
    },
  }),
  defineAdminRoute({
    operationId: 'getEventsConfig',
    summary: 'What is recorded and for how long.',
    method: 'get',
    path: '/events/config',
    roles: VIEW,
    ok: { status: 200, schema: eventsConfig, description: 'The settings' },
    handle(deps: AdminDeps, { caller }) {
      requireRealmWide(caller);
      const c = deps.events.settings();
      return {
        eventsEnabled: c.eventsEnabled,
        ...(c.eventsExpiration !== null ? { eventsExpiration: c.eventsExpiration } : {}),
        eventsListeners: ['jboss-logging'],
        enabledEventTypes: c.enabledEventTypes.length > 0 ? c.enabledEventTypes : [...USER_EVENT_TYPES],
        adminEventsEnabled: c.adminEventsEnabled,
        adminEventsDetailsEnabled: c.adminEventsDetailsEnabled,
      };
    },
  }),
  defineAdminRoute({
    operationId: 'updateEventsConfig',
    summary: 'Changes what is recorded (fields left out keep their value); every replica follows within seconds.',
    method: 'put',
    path: '/events/config',
    roles: MANAGE,
    body: eventsConfigInput,
    ok: { status: 204, description: 'Updated' },
    async handle(deps: AdminDeps, { body, caller }) {
      requireRealmWide(caller);
      const c = deps.events.settings();
      const next = {
        eventsEnabled: body.eventsEnabled ?? c.eventsEnabled,
        adminEventsEnabled: body.adminEventsEnabled ?? c.adminEventsEnabled,
        adminEventsDetailsEnabled: body.adminEventsDetailsEnabled ?? c.adminEventsDetailsEnabled,
        enabledEventTypes: body.enabledEventTypes ?? c.enabledEventTypes,
        eventsExpiration: body.eventsExpiration === undefined ? c.eventsExpiration : body.eventsExpiration || null,
      };
      await deps.eventsRepository.writeConfig(next);
      deps.events.useSettings(next);
    },
  }),
];
