import type { Request, Router } from 'express';
import { html, type Html } from '@hush/common';
import { CONSOLE_MOUNT, firstOf, pager, text, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';

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
const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

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
    if (kind === 'admin') {
      const { body } = await c.api<AdminEvent[]>('GET', '/admin-events', { query });
      shown = body.length;
      list = html`<ul class="items">${body.map(
        (e) =>
          html`<li class="event"><strong>${e.operationType}</strong> ${e.resourceType} <code>${e.resourcePath}</code><br><span class="note">${at(e.time)} UTC · by ${e.authDetails.userId ?? e.authDetails.clientId ?? '?'}${e.authDetails.ipAddress ? ` from ${e.authDetails.ipAddress}` : ''}</span>${e.representation ? html`<br><code>${e.representation}</code>` : ''}</li>`,
      )}</ul>`;
    } else {
      const { body } = await c.api<UserEvent[]>('GET', '/events', { query });
      shown = body.length;
      list = html`<ul class="items">${body.map(
        (e) =>
          html`<li class="event"><strong>${e.type}</strong>${e.error ? html` <span class="error">${e.error}</span>` : ''}<br><span class="note">${at(e.time)} UTC · user ${e.userId ?? '—'} · client ${e.clientId ?? '—'}${e.ipAddress ? ` · ${e.ipAddress}` : ''}</span></li>`,
      )}</ul>`;
    }
    c.render(
      'events',
      kind === 'admin' ? 'Admin events' : 'User events',
      html`${tabs}${filters(kind, req)}${shown === 0 ? html`<p class="note">No event matches.</p>` : list}${pager(BASE, { kind, ...params }, first, SIZE, shown)}`,
    );
  });
}
