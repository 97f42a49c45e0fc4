import type { Request, Response } from 'express';
import { DependencyUnavailableError } from '@hush/common';
import { redactRepresentation, sanitiseAdminEvent, type EventRecorder, type OperationType } from '../events/index.js';
import type { AdminDeps } from './admin-deps.js';
import type { AdminInput, AdminRoute } from './admin-route.js';
import { ADMIN_MOUNT } from './admin.routes.js';
import { HANDOVER_HEADER } from './handovers.routes.js';

/** Keycloak's resource types, by the path segment that names the resource (the last one that does). */
const RESOURCE_TYPES: Record<string, string> = {
  clients: 'CLIENT',
  'client-secret': 'CLIENT',
  'service-account-user': 'USER',
  users: 'USER',
  'reset-password': 'USER',
  credentials: 'USER',
  'execute-actions-email': 'USER',
  logout: 'USER',
  realm: 'REALM_ROLE_MAPPING',
  'role-mappings': 'REALM_ROLE_MAPPING',
  roles: 'REALM_ROLE',
  organizations: 'ORGANIZATION',
  members: 'ORGANIZATION_MEMBERSHIP',
  'client-scopes': 'CLIENT_SCOPE',
  events: 'REALM',
  config: 'REALM',
  'admin-events': 'REALM',
  keys: 'COMPONENT',
  handovers: 'REALM',
};

/** Calls that act on a resource rather than create it (Keycloak's ACTION). */
const ACTIONS = new Set(['client-secret', 'reset-password', 'logout', 'rotation', 'execute-actions-email']);

/**
 * What the event shows of the request: its body without a secret (none for a secret rotation);
 * for a credential handed over (handovers.routes.ts), that it was and to whom, never the credential.
 */
function representationOf(input: AdminInput<unknown, unknown, unknown>, tail: string, res: Response): string | undefined {
  const handoverId = res.getHeader(HANDOVER_HEADER);
  const body = input.body === undefined || tail === 'client-secret' ? undefined : redactRepresentation(input.body);
  if (typeof handoverId !== 'string') return body === undefined ? undefined : JSON.stringify(body);
  const to = (input.query as { handoverTo?: string }).handoverTo;
  return JSON.stringify({ ...(body && typeof body === 'object' ? body : {}), handover: { id: handoverId, to } });
}

/**
 * The admin event of a successful change (every call but GET), written in the change's own
 * transaction (admin-transaction.ts): what, where (`resourcePath` relative to the realm, the new id
 * appended on create) and who; the request's representation without a single secret or password
 * (redact.ts) when details are on; made storable whatever the request carried (sanitise.ts).
 * Client-secret rotation records no representation at all. Whether it is recorded follows the
 * settings in force when the call began: the call that turns admin events off is itself recorded.
 * If the event cannot be written, the change is undone and the call answers 503.
 */
export function recordAdminEvent(events: Pick<EventRecorder, 'settings'>) {
  return async function record(
    deps: Pick<AdminDeps, 'eventsRepository'>,
    route: AdminRoute<unknown, unknown, unknown, AdminDeps>,
    input: AdminInput<unknown, unknown, unknown>,
    result: unknown,
    res: Response,
  ): Promise<void> {
    const settings = events.settings();
    if (!settings.adminEventsEnabled) return;
    const req = res.req as Request;
    const path = req.originalUrl
      .split('?')[0]!
      .slice(ADMIN_MOUNT.length)
      .replace(/^\/+|\/+$/g, '');
    const segments = path.split('/');
    const last = [...segments].reverse().find((s) => RESOURCE_TYPES[s] !== undefined) ?? segments[0] ?? '';
    const clientRoles = segments.includes('clients') && segments.includes('role-mappings');
    const resourceType = clientRoles ? 'CLIENT_ROLE_MAPPING' : (RESOURCE_TYPES[last] ?? 'REALM');
    const tail = segments[segments.length - 1] ?? '';
    const operationType: OperationType = ACTIONS.has(tail) ? 'ACTION' : route.method === 'post' ? 'CREATE' : route.method === 'put' ? 'UPDATE' : 'DELETE';
    const resourcePath = route.ok.status === 201 && typeof result === 'string' && tail !== 'members' ? `${path}/${result}` : path;
    const representation = settings.adminEventsDetailsEnabled ? representationOf(input, tail, res) : undefined;
    const event = sanitiseAdminEvent({
      time: Date.now(),
      operationType,
      resourceType,
      resourcePath,
      authDetails: { realmId: 'public', clientId: input.caller.clientId, userId: input.caller.userId ?? input.caller.subject, ipAddress: input.caller.ipAddress },
      ...(representation !== undefined ? { representation } : {}),
    });
    try {
      await deps.eventsRepository.insertAdminEvents([event]);
    } catch (err) {
      throw new DependencyUnavailableError('audit log', err);
    }
  };
}
