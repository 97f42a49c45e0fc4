import type { Request, Router } from 'express';
import { html, type Html } from '@hush/common';
import { CONSOLE_MOUNT, firstOf, pager, table, text, utc, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/events`;
const SIZE = 50;

interface AdminEvent {
  time: number;
  operationType: string;
  resourceType: string;
  resourcePath: string;
  authDetails: { clientId?: string; userId?: string; ipAddress?: string };
  representation?: string;
}

interface UserEvent {
  time: number;
  type: string;
  clientId?: string;
  userId?: string;
  ipAddress?: string;
  error?: string;
}

const OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'ACTION'];

/**
 * Who the events name, by the name a person reads: users' usernames and clients' client ids,
 * each looked up once per page through the admin API; an id the API no longer knows (deleted,
 * or beyond this administrator's view) stays an id.
 */
async function namesOf(c: ConsoleRequest, users: readonly (string | undefined)[], clients: readonly (string | undefined)[]): Promise<(id: string | undefined) => string> {
  const names = new Map<string, string>();
  const look = async (id: string, path: string, pick: (body: Record<string, unknown>) => unknown) => {
    try {
      const name = pick((await c.api<Record<string, unknown>>('GET', path)).body);
      if (typeof name === 'string') names.set(id, name);
    } catch {
      // not known (any more): the id is shown
    }
  };
  const unique = (ids: readonly (string | undefined)[]) => [...new Set(ids.filter((id): id is string => typeof id === 'string' && id !== ''))];
  await Promise.all([
    ...unique(users).map((id) => look(id, `/users/${encodeURIComponent(id)}`, (u) => u['username'])),
    ...unique(clients)
      .filter((id) => /^[0-9a-f-]{36}$/.test(id))
      .map((id) => look(id, `/clients/${encodeURIComponent(id)}`, (k) => k['clientId'])),
  ]);
  return (id) => (id ? (names.get(id) ?? id) : '—');
}

/** Filters of one list, as a GET form: a filtered list is a link. */
function filters(kind: 'admin' | 'user', req: Request): Html {
  const field = (name: string, label: string, type = 'text') =>
    html`<label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${text(req, name)}" autocomplete="off">`;
  return html`<form method="get" action="${BASE}" role="search"><input type="hidden" name="kind" value="${kind}">
${
  kind === 'admin'
    ? html`<label for="f-operationTypes">Operation</label><select id="f-operationTypes" name="operationTypes"><option value="">Any</option>${OPERATIONS.map((o) => html`<option${text(req, 'operationTypes') === o ? html` selected` : ''}>${o}</option>`)}</select>
${field('resourceTypes', 'Resource type (CLIENT, USER, ORGANIZATION, COMPONENT…)')}${field('resourcePath', 'Resource path (* as wildcard)')}${field('authUser', 'By user or client (id)')}`
    : html`${field('type', 'Type (LOGIN, LOGIN_ERROR, CLIENT_LOGIN, UPDATE_PASSWORD…)')}${field('user', 'User id')}${field('client', 'Client id')}`
}
${field('dateFrom', 'From', 'date')}${field('dateTo', 'To', 'date')}<button type="submit" class="secondary">Filter</button></form>`;
}

/** The audit trail: admin events (what the admin API changed, by whom) and user events, each filtered and paged on the server. */
export function eventPages(router: Router, { get }: ConsoleRoutes): void {
  get(router, '/events', async (c: ConsoleRequest, req) => {
    const kind = text(req, 'kind') === 'user' ? 'user' : 'admin';
    const first = firstOf(req);
    const names = kind === 'admin' ? ['operationTypes', 'resourceTypes', 'resourcePath', 'authUser', 'dateFrom', 'dateTo'] : ['type', 'user', 'client', 'dateFrom', 'dateTo'];
    const params: Record<string, string> = Object.fromEntries(names.map((n): [string, string] => [n, text(req, n)]).filter(([, v]) => v !== ''));
    const query = { ...params, first: String(first), max: String(SIZE) };
    const tabs = html`<p class="actions"><a href="${BASE}?kind=admin"${kind === 'admin' ? html` aria-current="page"` : ''}>Admin events</a> <a href="${BASE}?kind=user"${kind === 'user' ? html` aria-current="page"` : ''}>User events</a></p>`;
    let list: Html;
    let shown: number;
    const caption = (n: number) => (n === 0 ? 'No event matches' : `Events ${first + 1}–${first + n}, newest first`);
    if (kind === 'admin') {
      const { body } = await c.api<AdminEvent[]>('GET', '/admin-events', { query });
      shown = body.length;
      const name = await namesOf(
        c,
        body.map((e) => e.authDetails.userId),
        body.map((e) => e.authDetails.clientId),
      );
      list = table(
        caption(shown),
        [
          { label: 'Time', cell: (e) => utc(e.time, true) },
          { label: 'Type', cell: (e) => `${e.operationType} ${e.resourceType}` },
          { label: 'By', cell: (e) => (e.authDetails.userId ? name(e.authDetails.userId) : name(e.authDetails.clientId)) },
          { label: 'What', cell: (e) => html`<code>${e.resourcePath}</code>${e.representation ? html`<br><code>${e.representation}</code>` : ''}` },
          { label: 'IP', cell: (e) => e.authDetails.ipAddress ?? '—' },
        ],
        body,
      );
    } else {
      const { body } = await c.api<UserEvent[]>('GET', '/events', { query });
      shown = body.length;
      const name = await namesOf(
        c,
        body.map((e) => e.userId),
        [],
      );
      list = table(
        caption(shown),
        [
          { label: 'Time', cell: (e) => utc(e.time, true) },
          { label: 'Type', cell: (e) => html`${e.type}${e.error ? html` <span class="error">${e.error}</span>` : ''}` },
          { label: 'Who', cell: (e) => name(e.userId) },
          { label: 'Client', cell: (e) => e.clientId ?? '—' },
          { label: 'IP', cell: (e) => e.ipAddress ?? '—' },
        ],
        body,
      );
    }
    c.render(
      'events',
      kind === 'admin' ? 'Admin events' : 'User events',
      html`${tabs}${filters(kind, req)}${shown === 0 ? html`<p class="note">No event matches.</p>` : list}${pager(BASE, { kind, ...params }, first, SIZE, shown)}`,
    );
  });
}
