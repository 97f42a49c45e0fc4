import type { Request, Router } from 'express';
import { html, type Html } from '@hush/common';
import type { AdminEventView as AdminEvent, UserEventView as UserEvent } from '../admin-api/index.js';
import { CONSOLE_MOUNT, listQuery, listState, orderFields, pager, table, text, utc, type ConsoleRequest, type ConsoleRoutes, type ListState } from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/events`;
const SIZE = 50;

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

/** Filters of one list, as a GET form keeping the list's order: a filtered list is a link. */
function filters(c: ConsoleRequest, kind: 'admin' | 'user', req: Request, list: ListState): Html {
  const field = (name: string, label: string, type = 'text') =>
    html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${text(req, name)}" autocomplete="off"></div>`;
  return html`<form method="get" action="${BASE}" role="search"><input type="hidden" name="kind" value="${kind}">${orderFields(list)}
${
  kind === 'admin'
    ? html`<div><label for="f-operationTypes">${c.t('events.operation')}</label><select id="f-operationTypes" name="operationTypes"><option value="">${c.t('common.any')}</option>${OPERATIONS.map((o) => html`<option${text(req, 'operationTypes') === o ? html` selected` : ''}>${o}</option>`)}</select></div>
${field('resourceTypes', c.t('events.resourceType'))}${field('resourcePath', c.t('events.resourcePath'))}${field('authUser', c.t('events.authUser'))}`
    : html`${field('type', c.t('events.typeFilter'))}${field('user', c.t('events.userFilter'))}${field('client', c.t('events.clientFilter'))}`
}
${field('dateFrom', c.t('events.from'), 'date')}${field('dateTo', c.t('events.to'), 'date')}<button type="submit" class="secondary">${c.t('common.filter')}</button></form>`;
}

/**
 * The audit trail: admin events (what the admin API changed, by whom) and user events, each
 * filtered, sorted by time (newest or oldest first) and paged on the server.
 */
export function eventPages(router: Router, { get }: ConsoleRoutes): void {
  get(router, '/events', async (c: ConsoleRequest, req) => {
    const kind = text(req, 'kind') === 'user' ? 'user' : 'admin';
    const names = kind === 'admin' ? ['operationTypes', 'resourceTypes', 'resourcePath', 'authUser', 'dateFrom', 'dateTo'] : ['type', 'user', 'client', 'dateFrom', 'dateTo'];
    const list = listState(req, BASE, ['kind', ...names], ['time'], { sort: 'time', direction: 'desc' });
    const { kind: _kind, ...params } = list.filters;
    const query = { ...params, ...listQuery(list), max: String(SIZE) };
    const tabs = html`<nav class="actions tabs" aria-label="${c.t('events.kinds')}"><a href="${BASE}?kind=admin"${kind === 'admin' ? html` aria-current="page"` : ''}>${c.t('events.adminTitle')}</a> <a href="${BASE}?kind=user"${kind === 'user' ? html` aria-current="page"` : ''}>${c.t('events.userTitle')}</a></nav>`;
    let listed: Html;
    let shown: number;
    const caption = (n: number) => c.t('events.caption', { from: list.first + 1, to: list.first + n, direction: list.direction });
    const time = { label: c.t('events.time'), sort: 'time', firstDirection: 'asc' as const };
    if (kind === 'admin') {
      const { body } = await c.api<AdminEvent[]>('GET', '/admin-events', { query });
      shown = body.length;
      const name = await namesOf(
        c,
        body.map((e) => e.authDetails.userId),
        body.map((e) => e.authDetails.clientId),
      );
      listed = table(
        c,
        caption(shown),
        [
          { ...time, cell: (e) => utc(e.time, true) },
          { label: c.t('events.type'), id: true, cell: (e) => html`<code>${e.operationType} ${e.resourceType}</code>` },
          { label: c.t('events.by'), id: true, cell: (e) => (e.authDetails.userId ? name(e.authDetails.userId) : name(e.authDetails.clientId)) },
          { label: c.t('events.what'), cell: (e) => html`<code>${e.resourcePath}</code>${e.representation ? html`<br><code>${e.representation}</code>` : ''}` },
          { label: c.t('events.ip'), id: true, cell: (e) => e.authDetails.ipAddress ?? '—' },
        ],
        body,
        list,
      );
    } else {
      const { body } = await c.api<UserEvent[]>('GET', '/events', { query });
      shown = body.length;
      const name = await namesOf(
        c,
        body.map((e) => e.userId),
        [],
      );
      listed = table(
        c,
        caption(shown),
        [
          { ...time, cell: (e) => utc(e.time, true) },
          { label: c.t('events.type'), id: true, cell: (e) => html`<code>${e.type}</code>${e.error ? html` <span class="error">${e.error}</span>` : ''}` },
          { label: c.t('events.who'), cell: (e) => name(e.userId) },
          { label: c.t('events.client'), cell: (e) => e.clientId ?? '—' },
          { label: c.t('events.ip'), id: true, cell: (e) => e.ipAddress ?? '—' },
        ],
        body,
        list,
      );
    }
    c.render(
      'events',
      kind === 'admin' ? c.t('events.adminTitle') : c.t('events.userTitle'),
      html`${tabs}${filters(c, kind, req, list)}${shown === 0 ? html`<p class="note">${c.t('events.none')}</p>` : listed}${pager(c, list, SIZE, shown)}`,
    );
  });
}
