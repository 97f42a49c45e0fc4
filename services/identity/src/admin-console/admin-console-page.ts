import type { Request, Response, Router } from 'express';
import { html, readForm, type Html } from '@hush/common';
import type { HtmlValues, TextValues } from '@hush/common/i18n';
import { ZodError, type z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { ADMIN_CONSOLE, type ConsoleSignIn } from '../console-sign-in/index.js';
import { csrfField, languageLinks, wordsFor, type ConsoleNavItem, type PageKey, type PageMessages } from '../pages/index.js';
import { adminApiFor, AdminApiRefusedError, type AdminApiCall } from './admin-api-client.js';

export const CONSOLE_MOUNT = ADMIN_CONSOLE.mount;

/** A message of the admin console's catalogue (admin-console/messages/), by its key under `admin`. */
export type AdminKey = PageKey extends infer K ? (K extends `admin.${infer R}` ? R : never) : never;

/** The console's sections, each shown only to holders of one of its roles (the roles the admin API asks for its lists). */
export const SECTIONS = [
  { key: 'organizations', href: `${CONSOLE_MOUNT}/organizations`, roles: ['view-realm', 'view-users'] },
  { key: 'users', href: `${CONSOLE_MOUNT}/users`, roles: ['view-users', 'query-users'] },
  { key: 'clients', href: `${CONSOLE_MOUNT}/clients`, roles: ['view-clients', 'query-clients'] },
  { key: 'scopes', href: `${CONSOLE_MOUNT}/scopes`, roles: ['view-clients', 'view-realm'] },
  { key: 'keys', href: `${CONSOLE_MOUNT}/keys`, roles: ['view-realm'] },
  { key: 'events', href: `${CONSOLE_MOUNT}/events`, roles: ['view-events'] },
] as const;

export type SectionKey = (typeof SECTIONS)[number]['key'];

/** What a console page handler works with: the admin API as the signed-in administrator, its words, and the page's pieces. */
export interface ConsoleRequest {
  api: AdminApiCall;
  roles: ReadonlySet<string>;
  has(...roles: string[]): boolean;
  csrf: Html;
  /** The page's words in its language (pages/page-locale.ts), by their key under `admin`. */
  m: PageMessages;
  t(key: AdminKey, values?: TextValues): string;
  h(key: AdminKey, values?: HtmlValues): Html;
  render(current: SectionKey | undefined, title: string, body: Html, status?: number): void;
}

export interface ConsoleContext {
  signIn: ConsoleSignIn;
  apiUrl: string;
  /** The signed-in person's realm-management roles (composites expanded). */
  rolesOf(userId: string): Promise<string[]>;
  localeOf(userId: string): Promise<string | undefined>;
}

/**
 * The console's view of one request. Its language is the pages' (pages/page-locale.ts:
 * `kc_locale`, which the switcher in the header sets, `ui_locales`, the signed-in person's
 * `locale` attribute, the cookie the switcher keeps, then Accept-Language).
 */
export async function consoleRequest(ctx: ConsoleContext, req: Request, res: Response): Promise<ConsoleRequest> {
  const session = ctx.signIn.sessionOf(res);
  const [roleList, locale] = await Promise.all([ctx.rolesOf(session.userId), ctx.localeOf(session.userId)]);
  const roles = new Set(roleList);
  const m = wordsFor(req, res, undefined, locale);
  const t = (key: AdminKey, values?: TextValues) => m.text(`admin.${key}` as PageKey, values);
  const nav: ConsoleNavItem[] = [
    { href: `${CONSOLE_MOUNT}/`, label: t('nav.home') },
    ...SECTIONS.filter((s) => s.roles.some((r) => roles.has(r))).map((s) => ({ href: s.href, label: t(`nav.${s.key}`) })),
  ];
  const csrfToken = ctx.signIn.csrfToken(res);
  return {
    api: adminApiFor(ctx.apiUrl, session.accessToken, (status, detail) => refusal(t, status, detail)),
    roles,
    has: (...wanted) => wanted.some((r) => roles.has(r)),
    csrf: csrfField(csrfToken),
    m,
    t,
    h: (key, values) => m.html(`admin.${key}` as PageKey, values),
    render(current, title, body, status = 200) {
      const here = SECTIONS.find((s) => s.key === current)?.href ?? (current === undefined ? `${CONSOLE_MOUNT}/` : undefined);
      ctx.signIn.sendPage(res, { console: t('console'), nav, ...(here === undefined ? {} : { current: here }), title, body, m, languages: languageLinks(req, m.locale) }, status);
    },
  };
}

/** How a refusal of the admin API reads on a page: in the page's language, with the API's own words where it gave some. */
function refusal(t: ConsoleRequest['t'], status: number, detail: string | undefined): string {
  if (status === 403) return t('errors.forbidden');
  if (status === 404) return t('errors.notFound');
  if (status >= 500) return t('errors.unavailable');
  if (status === 409) return t('errors.conflict', { detail: detail ?? '' });
  return t('errors.refused', { detail: detail ?? String(status) });
}

/** A form's fields through its schema; a field that does not fit is the page's 400, worded by the schema's message key (`form.*`). */
export function formOf<S extends z.ZodType>(c: ConsoleRequest, req: Request, schema: S): z.output<S> {
  try {
    return readForm(req, schema);
  } catch (err) {
    if (err instanceof ZodError) {
      const key = err.issues[0]?.message;
      throw new InvalidInputError(key?.startsWith('form.') ? c.t(key as AdminKey) : c.t('errors.formIncomplete'));
    }
    throw err;
  }
}

/** A zod message: the key of its words in the console's catalogue (formOf words it). */
export const says = (key: Extract<AdminKey, `form.${string}`>): string => key;

/** Notices after a change (Post/Redirect/Get), by code: the page never shows text taken from the URL. */
export const NOTICES: Record<string, AdminKey> = {
  created: 'notices.created',
  updated: 'notices.updated',
  deleted: 'notices.deleted',
  'signed-out': 'notices.signedOut',
  'password-set': 'notices.passwordSet',
  'handed-over': 'notices.handedOver',
  'credential-removed': 'notices.credentialRemoved',
  'member-added': 'notices.memberAdded',
};

export function notice(c: ConsoleRequest, req: Request): Html | undefined {
  const code = req.query['done'];
  const key = typeof code === 'string' && Object.hasOwn(NOTICES, code) ? NOTICES[code] : undefined;
  return key ? html`<p class="ok" role="status">${c.t(key)}</p>` : undefined;
}

/** A confirmation page: destructive actions are a POST from here, never from a link. */
export function confirmation(c: ConsoleRequest, section: SectionKey, o: { title: string; question: string; action: string; button: string; back: string }): void {
  c.render(
    section,
    o.title,
    html`<p>${o.question}</p>
<form method="post" action="${o.action}">${c.csrf}<div class="actions"><button type="submit" class="danger">${o.button}</button><a href="${o.back}">${c.t('common.cancel')}</a></div></form>`,
  );
}

/**
 * What the admin API says this administrator may do to a user or client (its `access.manage`): a
 * page about an action it may not take is refused, as the API would refuse the action itself.
 */
export function requireManage(c: ConsoleRequest, target: { access: { manage: boolean } }): void {
  if (!target.access.manage) throw new AdminApiRefusedError(403, c.t('errors.forbidden'));
}

/** Why a page offers none of its actions to an administrator whose role would allow them: the principal holds more. */
export function beyondAuthority(c: ConsoleRequest, role: string, target: { access: { manage: boolean } }, name: string): Html | undefined {
  return c.has(role) && !target.access.manage ? html`<p class="note" role="note">${c.t('errors.beyondAuthority', { name })}</p>` : undefined;
}

/**
 * A list page's state, all of it in its URL so that every view is a link and works without
 * JavaScript: its filters, its order (`sort`, `direction`: the admin API's own parameters) and
 * the position of its page (`first`). Links leave out what is the default.
 */
export interface ListState {
  path: string;
  /** The filters given (empty ones left out). */
  filters: Readonly<Record<string, string>>;
  sort: string;
  direction: 'asc' | 'desc';
  first: number;
  defaults: { sort: string; direction: 'asc' | 'desc' };
}

/** The list's state from the query: filters named by `filters`, a sort among `sorts` (else the default), a direction, `first`. */
export function listState(req: Request, path: string, filters: readonly string[], sorts: readonly string[], defaults: ListState['defaults']): ListState {
  const sort = text(req, 'sort');
  const direction = text(req, 'direction');
  return {
    path,
    filters: Object.fromEntries(filters.map((n): [string, string] => [n, text(req, n)]).filter(([, v]) => v !== '')),
    sort: sorts.includes(sort) ? sort : defaults.sort,
    direction: direction === 'asc' || direction === 'desc' ? direction : defaults.direction,
    first: firstOf(req),
    defaults,
  };
}

/** The order and position as the admin API takes them (`max` aside). */
export const listQuery = (s: ListState): Record<string, string> => ({ sort: s.sort, direction: s.direction, first: String(s.first) });

/** A link to the list with `changes`; a new order starts at the first page. */
export function listLink(s: ListState, changes: Partial<Pick<ListState, 'sort' | 'direction' | 'first'>>): string {
  const next = { ...s, ...changes };
  const q = new URLSearchParams(next.filters);
  if (next.sort !== s.defaults.sort || next.direction !== s.defaults.direction) {
    q.set('sort', next.sort);
    q.set('direction', next.direction);
  }
  if (next.first > 0) q.set('first', String(next.first));
  const query = q.toString();
  return query ? `${s.path}?${query}` : s.path;
}

/** The order of a list as hidden fields of its search or filter form: a new search keeps it. */
export function orderFields(s: ListState): Html {
  return s.sort === s.defaults.sort && s.direction === s.defaults.direction
    ? html``
    : html`<input type="hidden" name="sort" value="${s.sort}"><input type="hidden" name="direction" value="${s.direction}">`;
}

/** Previous/next links of a server-side page of `size` items (`shown` of them on this one), with the list's filters and order. */
export function pager(c: Pick<ConsoleRequest, 't'>, s: ListState, size: number, shown: number): Html {
  const prev = s.first > 0 ? html`<a href="${listLink(s, { first: Math.max(0, s.first - size) })}" rel="prev">${c.t('common.previousPage')}</a>` : '';
  const next = shown >= size ? html`<a href="${listLink(s, { first: s.first + size })}" rel="next">${c.t('common.nextPage')}</a>` : '';
  return prev || next ? html`<nav class="actions pager" aria-label="${c.t('common.pages')}">${prev} ${next}</nav>` : html``;
}

/** `first` from the query: a non-negative integer, else 0. */
export function firstOf(req: Request): number {
  const n = Number(req.query['first']);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

export const text = (req: Request, name: string): string => (typeof req.query[name] === 'string' ? req.query[name] : '');

export const PAGE_SIZE = 20;

/** One searchable list's search form (GET, so the result is a link), keeping the list's order. */
export function searchForm(c: Pick<ConsoleRequest, 't'>, s: ListState, label: string): Html {
  return html`<form method="get" action="${s.path}" role="search">${orderFields(s)}<div><label for="search">${label}</label><input id="search" name="search" value="${s.filters['search'] ?? ''}"></div><button type="submit" class="secondary">${c.t('common.search')}</button></form>`;
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

/** One column of a list table: its header, each row's cell, and the admin API's sort field when the list sorts by it. */
export interface Column<T> {
  label: string;
  cell(row: T): Html | string;
  sort?: string;
  /** The direction of a first click on its header (ascending unless said). */
  firstDirection?: 'asc' | 'desc';
  /** Its cells are identifiers (a username, an address): kept on one line on a desktop. */
  id?: boolean;
}

/**
 * A list as a table with a header row (on a phone each row is a card, each cell named by its
 * column: pages/console-style.ts). `caption` says what the table lists and how many. A sortable
 * column's header is a link to the list in its order (the other direction when already sorted
 * by it), and the sorted column says so to assistive technology (`aria-sort`).
 */
export function table<T>(c: Pick<ConsoleRequest, 't'>, caption: string, columns: readonly Column<T>[], rows: readonly T[], state?: ListState): Html {
  const header = (col: Column<T>) => {
    if (!state || !col.sort) return html`<th scope="col">${col.label}</th>`;
    const sorted = state.sort === col.sort;
    const direction = sorted ? (state.direction === 'asc' ? 'desc' : 'asc') : (col.firstDirection ?? 'asc');
    return html`<th scope="col"${sorted ? html` aria-sort="${state.direction === 'asc' ? 'ascending' : 'descending'}"` : ''}><a class="sort" href="${listLink(state, { sort: col.sort, direction, first: 0 })}" title="${c.t('common.sortBy', { column: col.label })}">${col.label}${sorted ? html`<span aria-hidden="true">${state.direction === 'asc' ? ' ▲' : ' ▼'}</span>` : ''}</a></th>`;
  };
  return html`<table class="list"><caption>${caption}</caption>
<thead><tr>${columns.map(header)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${columns.map((col) => html`<td data-label="${col.label}"${col.id ? html` class="id"` : ''}>${col.cell(row)}</td>`)}</tr>`)}</tbody></table>`;
}

/** Yes or no, for a table cell. */
export const yesNo = (c: Pick<ConsoleRequest, 't'>, value: boolean): string => (value ? c.t('common.yes') : c.t('common.no'));

/** A time as the console shows it: UTC, to the minute or second; in a narrow column it breaks after the date only. */
export const utc = (ms: number, seconds = false): string =>
  `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .slice(0, seconds ? 19 : 16)}\u00a0UTC`;
