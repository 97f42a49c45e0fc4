import type { Request, Response, Router } from 'express';
import { html, readForm, type Html } from '@hush/common';
import { ZodError, type z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { ADMIN_CONSOLE, type ConsoleSignIn } from '../console-sign-in/index.js';
import { csrfField, type ConsoleNavItem } from '../pages/index.js';
import { adminApiFor, AdminApiRefusedError, type AdminApiCall } from './admin-api-client.js';

export const CONSOLE_MOUNT = ADMIN_CONSOLE.mount;

/** The console's sections, each shown only to holders of one of its roles (the roles the admin API asks for its lists). */
export const SECTIONS = [
  { key: 'organizations', href: `${CONSOLE_MOUNT}/organizations`, label: 'Organizations', roles: ['view-realm', 'view-users'] },
  { key: 'users', href: `${CONSOLE_MOUNT}/users`, label: 'Users', roles: ['view-users', 'query-users'] },
  { key: 'clients', href: `${CONSOLE_MOUNT}/clients`, label: 'Clients', roles: ['view-clients', 'query-clients'] },
  { key: 'scopes', href: `${CONSOLE_MOUNT}/scopes`, label: 'APIs and scopes', roles: ['view-clients', 'view-realm'] },
  { key: 'keys', href: `${CONSOLE_MOUNT}/keys`, label: 'Signing keys', roles: ['view-realm'] },
  { key: 'events', href: `${CONSOLE_MOUNT}/events`, label: 'Events', roles: ['view-events'] },
] as const;

export type SectionKey = (typeof SECTIONS)[number]['key'];

/** What a console page handler works with: the admin API as the signed-in administrator, and the page's pieces. */
export interface ConsoleRequest {
  api: AdminApiCall;
  roles: ReadonlySet<string>;
  has(...roles: string[]): boolean;
  csrf: Html;
  render(current: SectionKey | undefined, title: string, body: Html, status?: number): void;
}

export interface ConsoleContext {
  signIn: ConsoleSignIn;
  apiUrl: string;
  /** The signed-in person's realm-management roles (composites expanded). */
  rolesOf(userId: string): Promise<string[]>;
}

export async function consoleRequest(ctx: ConsoleContext, res: Response): Promise<ConsoleRequest> {
  const session = ctx.signIn.sessionOf(res);
  const roles = new Set(await ctx.rolesOf(session.userId));
  const nav: ConsoleNavItem[] = [
    { href: `${CONSOLE_MOUNT}/`, label: 'Home' },
    ...SECTIONS.filter((s) => s.roles.some((r) => roles.has(r))).map((s) => ({ href: s.href, label: s.label })),
  ];
  const csrfToken = ctx.signIn.csrfToken(res);
  return {
    api: adminApiFor(ctx.apiUrl, session.accessToken),
    roles,
    has: (...wanted) => wanted.some((r) => roles.has(r)),
    csrf: csrfField(csrfToken),
    render(current, title, body, status = 200) {
      const here = SECTIONS.find((s) => s.key === current)?.href ?? (current === undefined ? `${CONSOLE_MOUNT}/` : undefined);
      ctx.signIn.sendPage(res, { console: 'Administration', nav, ...(here === undefined ? {} : { current: here }), title, body }, status);
    },
  };
}

/** A form's fields through its schema; a field that does not fit is the page's 400 with zod's words. */
export function formOf<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  try {
    return readForm(req, schema);
  } catch (err) {
    if (err instanceof ZodError) throw new InvalidInputError(err.issues[0]?.message ?? 'The form is not complete.');
    throw err;
  }
}

/** Notices after a change (Post/Redirect/Get), by code: the page never shows text taken from the URL. */
export const NOTICES: Record<string, string> = {
  created: 'Created.',
  updated: 'Saved.',
  deleted: 'Deleted.',
  'signed-out': 'Signed out everywhere: every session and refresh token of this user has ended.',
  'password-set': 'The password was set.',
  'handed-over': 'Handed over: the owner receives a one-time link by e-mail. Its receipt is below.',
  'credential-removed': 'The second factor was removed.',
  'member-added': 'Added to the organization.',
};

export function notice(req: Request): Html | undefined {
  const code = req.query['done'];
  const text = typeof code === 'string' ? NOTICES[code] : undefined;
  return text ? html`<p class="ok" role="status">${text}</p>` : undefined;
}

/** A confirmation page: destructive actions are a POST from here, never from a link. */
export function confirmation(c: ConsoleRequest, section: SectionKey, o: { title: string; question: string; action: string; button: string; back: string }): void {
  c.render(
    section,
    o.title,
    html`<p>${o.question}</p>
<form method="post" action="${o.action}">${c.csrf}<div class="actions"><button type="submit" class="danger">${o.button}</button><a href="${o.back}">Cancel</a></div></form>`,
  );
}

/**
 * What the admin API says this administrator may do to a user or client (its `access.manage`): a
 * page about an action it may not take is refused, as the API would refuse the action itself.
 */
export function requireManage(target: { access: { manage: boolean } }): void {
  if (!target.access.manage) throw new AdminApiRefusedError(403, 'Your administrator roles do not allow this.');
}

/** Why a page offers none of its actions to an administrator whose role would allow them: the principal holds more. */
export function beyondAuthority(c: ConsoleRequest, role: string, target: { access: { manage: boolean } }, name: string): Html | undefined {
  return c.has(role) && !target.access.manage
    ? html`<p class="note" role="note">${name} holds administrator roles you do not hold: you may view it, not change it.</p>`
    : undefined;
}

/** Previous/next links of a server-side page of `size` items starting at `first`. */
export function pager(path: string, params: Record<string, string | undefined>, first: number, size: number, shown: number): Html {
  const link = (at: number) => {
    const q = new URLSearchParams(Object.entries({ ...params, first: String(at) }).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
    return `${path}?${q.toString()}`;
  };
  const prev = first > 0 ? html`<a href="${link(Math.max(0, first - size))}" rel="prev">Previous page</a>` : '';
  const next = shown >= size ? html`<a href="${link(first + size)}" rel="next">Next page</a>` : '';
  return prev || next ? html`<p class="actions">${prev} ${next}</p>` : html``;
}

/** `first` from the query: a non-negative integer, else 0. */
export function firstOf(req: Request): number {
  const n = Number(req.query['first']);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

export const text = (req: Request, name: string): string => (typeof req.query[name] === 'string' ? req.query[name] : '');

export const PAGE_SIZE = 20;

/** One searchable list's search form (GET, so the result is a link). */
export function searchForm(action: string, label: string, value: string): Html {
  return html`<form method="get" action="${action}" role="search"><label for="search">${label}</label><input id="search" name="search" value="${value}"><button type="submit" class="secondary">Search</button></form>`;
}

/** Lines of a textarea, trimmed, without empty ones. */
export const lines = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter(Boolean);

type Handler = (c: ConsoleRequest, req: Request, res: Response) => Promise<void>;

/** How each section declares its pages: every one behind the console session and a realm-management role; every POST a console form. */
export interface ConsoleRoutes {
  get(this: void, router: Router, path: string, handler: Handler): void;
  /** `characters`: the most the form's fields hold (its body limit). */
  post(this: void, router: Router, path: string, characters: number, handler: Handler): void;
}

/** One column of a list table: its header and each row's cell. */
export interface Column<T> {
  label: string;
  cell(row: T): Html | string;
}

/**
 * A list as a table with a header row (on a phone each row is a card, each cell named by its
 * column: pages/console-style.ts). `caption` says what the table lists and how many.
 */
export function table<T>(caption: string, columns: readonly Column<T>[], rows: readonly T[]): Html {
  return html`<table class="list"><caption>${caption}</caption>
<thead><tr>${columns.map((c) => html`<th scope="col">${c.label}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${columns.map((c) => html`<td data-label="${c.label}">${c.cell(row)}</td>`)}</tr>`)}</tbody></table>`;
}

/** Yes or no, for a table cell. */
export const yesNo = (value: boolean): string => (value ? 'yes' : 'no');

/** A time as the console shows it: UTC, to the minute or second. */
export const utc = (ms: number, seconds = false): string =>
  `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .slice(0, seconds ? 19 : 16)} UTC`;
