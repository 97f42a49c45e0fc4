import type { Response } from 'express';
import { AdminForbiddenError } from '../errors.js';
import type { AdminRole } from '../roles/index.js';

/**
 * Who calls the admin API, from a verified access token: the user or client it was issued to, its
 * realm-management roles (composites expanded) and its organization.
 *
 * Rules:
 * - a call needs one of the roles its route declares (`realm-admin` holds them all);
 * - a caller with an organization and without `realm-admin` is that organization's administrator:
 *   it sees and changes only its organization's clients and users (what lies outside is "not
 *   found", so nothing about it is revealed), what it creates joins its organization, and it
 *   cannot reach realm-wide settings (roles, organizations other than its own, events, keys).
 */
export interface AdminCaller {
  /** The token's `sub`: a user id, or a client id for a client's own token. */
  subject: string;
  clientId: string;
  userId: string | undefined;
  roles: ReadonlySet<string>;
  /** The organization the caller is confined to; undefined when realm-wide. */
  organizationId: string | undefined;
  ipAddress: string | undefined;
}

export function callerOf(res: Response): AdminCaller {
  return res.locals['adminCaller'] as AdminCaller;
}

export function hasAnyRole(caller: AdminCaller, roles: readonly AdminRole[]): boolean {
  return roles.some((r) => caller.roles.has(r));
}

/** For realm-wide operations: an organization's administrator is refused. */
export function requireRealmWide(caller: AdminCaller): void {
  if (caller.organizationId !== undefined) throw new AdminForbiddenError();
}

/** Whether a record of `organizationId` is within the caller's reach. */
export function withinReach(caller: AdminCaller, organizationId: string | null): boolean {
  return caller.organizationId === undefined || caller.organizationId === organizationId;
}

/**
 * Who a handover names as having handed the credential over: the administrator's username, or the
 * client id of a service account acting alone (its token has no user).
 */
export async function handedOverBy(deps: { users: { findById(id: string): Promise<{ username: string } | undefined> } }, caller: AdminCaller): Promise<string> {
  if (caller.userId === undefined) return caller.clientId;
  return (await deps.users.findById(caller.userId))?.username ?? caller.clientId;
}
