import type { Router } from 'express';
import { html, type Html } from '@hush/common';
import { z } from 'zod';
import type { ClientScopeView, ClientView as Client, OrganizationView, ReceiptView as Receipt } from '../admin-api/index.js';
import { createdId } from './admin-api-client.js';
import {
  beyondAuthority,
  confirmation,
  requireManage,
  CONSOLE_MOUNT,
  formOf,
  lines,
  listQuery,
  listState,
  notice,
  PAGE_SIZE,
  pager,
  says,
  searchForm,
  table,
  yesNo,
  type AdminKey,
  type ConsoleRequest,
  type ConsoleRoutes,
} from './admin-console-page.js';
import { receiptList } from './receipts.js';

const BASE = `${CONSOLE_MOUNT}/clients`;
const MANAGE = 'manage-clients';
/** The orders the admin API offers for clients (`sort`). */
const SORTS = ['clientId', 'name', 'publicClient', 'consentRequired', 'enabled'];

/** The grants a client may use, by Keycloak's names of its flows. */
function grantsOf(c: ConsoleRequest, k: Client): string[] {
  const grant = (key: string) => c.t(`clients.grant.${key}` as AdminKey);
  return [
    ...(k.standardFlowEnabled ? [grant('authorizationCode')] : []),
    ...(k.serviceAccountsEnabled ? [grant('clientCredentials')] : []),
    ...(k.implicitFlowEnabled ? [grant('implicit')] : []),
    ...(k.attributes['oauth2.device.authorization.grant.enabled'] === 'true' ? [grant('device')] : []),
    ...(k.attributes['use.refresh.tokens'] === 'true' ? [grant('refreshToken')] : []),
  ];
}

const on = z
  .literal('on')
  .optional()
  .transform((v) => v === 'on');
const email = z
  .email(says('form.email'))
  .optional()
  .or(z.literal('').transform(() => undefined));

const createForm = z.object({
  clientId: z.string().trim().optional(),
  name: z.string().trim().optional(),
  type: z.enum(['confidential', 'public']),
  grant_authorization_code: on,
  grant_client_credentials: on,
  grant_implicit: on,
  grant_device: on,
  grant_refresh_token: on,
  client_credentials_refresh: on,
  consent_required: on,
  redirectUris: z.string().optional(),
  webOrigins: z.string().optional(),
  scopes: z.string().optional(),
  handoverTo: email,
});

const GRANTS = [
  ['grant_authorization_code', 'clients.grantOption.authorizationCode'],
  ['grant_client_credentials', 'clients.grantOption.clientCredentials'],
  ['grant_refresh_token', 'clients.grantOption.refreshToken'],
  ['grant_device', 'clients.grantOption.device'],
  ['grant_implicit', 'clients.grantOption.implicit'],
] as const satisfies readonly (readonly [string, AdminKey])[];

const clientPath = (id: string) => `/clients/${encodeURIComponent(id)}`;
const idOf = (req: { params: Record<string, unknown> }) => String(req.params['id']);

export function clientPages(router: Router, { get, post }: ConsoleRoutes): void {
  get(router, '/clients', async (c: ConsoleRequest, req) => {
    const list = listState(req, BASE, ['search'], SORTS, { sort: 'clientId', direction: 'asc' });
    const search = list.filters['search'];
    const { body: clients } = await c.api<Client[]>('GET', '/clients', {
      query: { clientId: search, search: search ? 'true' : undefined, ...listQuery(list), max: String(PAGE_SIZE) },
    });
    const [scopes, orgs] = await Promise.all([
      c.has(MANAGE) ? scopeNames(c) : Promise.resolve([]),
      c.has('view-realm', 'view-users') ? c.api<OrganizationView[]>('GET', '/organizations', { query: { max: '100' } }).then((r) => r.body) : Promise.resolve([]),
    ]);
    const range = { count: clients.length, from: list.first + 1, to: list.first + clients.length };
    c.render(
      'clients',
      c.t('clients.title'),
      html`${notice(c, req)}${searchForm(c, list, c.t('clients.search'))}
${table(
  c,
  search ? c.t('clients.captionSearch', { ...range, search }) : c.t('clients.caption', range),
  [
    { label: c.t('clients.clientId'), sort: 'clientId', id: true, cell: (k) => html`<a href="${BASE}/${k.id}">${k.clientId}</a>` },
    { label: c.t('clients.name'), sort: 'name', cell: (k) => k.name },
    { label: c.t('clients.type'), sort: 'publicClient', cell: (k) => (k.publicClient ? c.t('clients.public') : c.t('clients.confidential')) },
    { label: c.t('clients.grants'), cell: (k) => grantsOf(c, k).join(', ') || '—' },
    { label: c.t('clients.organization'), cell: (k) => orgs.find((o) => o.id === k.attributes['hush.organization.id'])?.name ?? k.attributes['hush.organization.id'] ?? '—' },
    { label: c.t('clients.consent'), sort: 'consentRequired', cell: (k) => (k.consentRequired ? c.t('clients.consentAsked') : c.t('clients.consentNotAsked')) },
    { label: c.t('clients.enabled'), sort: 'enabled', cell: (k) => yesNo(c, k.enabled) },
  ],
  clients,
  list,
)}
${pager(c, list, PAGE_SIZE, clients.length)}
${c.has(MANAGE) ? createClientForm(c, scopes) : ''}`,
    );
  });

  post(router, '/clients', 20_000, async (c, req, res) => {
    const f = formOf(c, req, createForm);
    const confidential = f.type === 'confidential';
    const created = await c.api('POST', '/clients', {
      query: { handoverTo: confidential ? f.handoverTo : undefined },
      body: {
        ...(f.clientId ? { clientId: f.clientId } : {}),
        ...(f.name ? { name: f.name } : {}),
        publicClient: !confidential,
        standardFlowEnabled: f.grant_authorization_code,
        serviceAccountsEnabled: confidential && f.grant_client_credentials,
        implicitFlowEnabled: f.grant_implicit,
        consentRequired: f.consent_required,
        redirectUris: lines(f.redirectUris),
        webOrigins: lines(f.webOrigins),
        defaultClientScopes: lines(f.scopes?.replace(/[\s,]+/g, '\n')),
        attributes: {
          'oauth2.device.authorization.grant.enabled': String(f.grant_device),
          'use.refresh.tokens': String(f.grant_refresh_token),
          'client_credentials.use_refresh_token': String(confidential && f.client_credentials_refresh),
        },
      },
    });
    const id = createdId(created);
    if (!confidential || f.handoverTo) {
      res.redirect(303, `${BASE}/${id}?done=${f.handoverTo ? 'handed-over' : 'created'}`);
      return;
    }
    // Not handed over: the new secret is shown this once, on this page (never in a URL).
    const secret = await c.api<{ value?: string }>('GET', `${clientPath(id)}/client-secret`).then(
      (a) => a.body.value,
      () => undefined,
    );
    shownOnce(c, id, c.t('clients.createdTitle'), secret);
  });

  get(router, '/clients/:id', async (c, req) => {
    const id = idOf(req);
    const { body: k } = await c.api<Client>('GET', clientPath(id));
    const { body: receipts } = await c.api<Receipt[]>('GET', '/handovers', { query: { subject: id, max: '5' } });
    const grant = (key: string) => c.t(`clients.grant.${key}` as AdminKey);
    const grants = [
      k.standardFlowEnabled && grant('authorizationCode'),
      k.serviceAccountsEnabled && grant('clientCredentials'),
      k.implicitFlowEnabled && grant('implicit'),
      k.attributes['oauth2.device.authorization.grant.enabled'] === 'true' && grant('device'),
      k.attributes['use.refresh.tokens'] !== 'false' && k.standardFlowEnabled && grant('refreshToken'),
      k.attributes['client_credentials.use_refresh_token'] === 'true' && grant('refreshTokenClientCredentials'),
    ].filter(Boolean);
    const manage = k.access.manage;
    c.render(
      'clients',
      k.clientId,
      html`${notice(c, req)}<dl><dt>${c.t('clients.clientId')}</dt><dd><code>${k.clientId}</code></dd><dt>${c.t('clients.name')}</dt><dd>${k.name}</dd><dt>${c.t('clients.type')}</dt><dd>${k.publicClient ? c.t('clients.public') : c.t('clients.confidential')}</dd>
<dt>${c.t('clients.grants')}</dt><dd>${grants.join(', ') || '—'}</dd><dt>${c.t('clients.consent')}</dt><dd>${k.consentRequired ? c.t('clients.consentAsked') : c.t('clients.consentNotAsked')}</dd><dt>${c.t('clients.redirectUris')}</dt><dd>${k.redirectUris.join(' ') || '—'}</dd><dt>${c.t('clients.webOrigins')}</dt><dd>${k.webOrigins.join(' ') || '—'}</dd><dt>${c.t('clients.scopes')}</dt><dd>${k.defaultClientScopes.join(' ') || '—'}</dd></dl>
${beyondAuthority(c, MANAGE, k, k.clientId)}
${
  manage && !k.publicClient
    ? html`<h2>${c.t('clients.secret')}</h2><form method="post" action="${BASE}/${k.id}/secret">${c.csrf}
<label for="rotate-handover">${c.t('clients.rotateHandoverTo')}</label><input id="rotate-handover" name="handoverTo" type="email" autocomplete="off" aria-describedby="rotate-note">
<p class="note" id="rotate-note">${c.t('clients.rotateNote')}</p>
<button type="submit">${c.t('clients.rotate')}</button></form>`
    : ''
}
<h2>${c.t('clients.handovers')}</h2>${receiptList(c, receipts)}
${manage ? html`<h2>${c.t('clients.delete')}</h2><p><a href="${BASE}/${k.id}/delete">${c.t('clients.deleteLink', { clientId: k.clientId })}</a></p>` : ''}`,
    );
  });

  post(router, '/clients/:id/secret', 500, async (c, req, res) => {
    const { handoverTo } = formOf(c, req, z.object({ handoverTo: email }));
    const { body } = await c.api<{ value?: string }>('POST', `${clientPath(idOf(req))}/client-secret`, { query: { handoverTo } });
    if (handoverTo) {
      res.redirect(303, `${BASE}/${idOf(req)}?done=handed-over`);
      return;
    }
    shownOnce(c, idOf(req), c.t('clients.rotatedTitle'), body.value);
  });

  get(router, '/clients/:id/delete', async (c, req) => {
    const { body: k } = await c.api<Client>('GET', clientPath(idOf(req)));
    requireManage(c, k);
    confirmation(c, 'clients', {
      title: c.t('clients.deleteTitle', { clientId: k.clientId }),
      question: c.t('clients.deleteQuestion', { clientId: k.clientId }),
      action: `${BASE}/${k.id}/delete`,
      button: c.t('clients.deleteButton'),
      back: `${BASE}/${k.id}`,
    });
  });

  post(router, '/clients/:id/delete', 0, async (c, req, res) => {
    await c.api('DELETE', clientPath(idOf(req)));
    res.redirect(303, `${BASE}?done=deleted`);
  });
}

/** The page that shows a secret the administrator chose to see: once, never in a URL. */
function shownOnce(c: ConsoleRequest, id: string, title: string, secret: string | undefined): void {
  c.render(
    'clients',
    title,
    secret
      ? html`<p>${c.t('clients.copyNow')}</p><label for="secret">${c.t('clients.secretLabel')}</label><input id="secret" readonly value="${secret}" autocomplete="off"><p><a href="${BASE}/${id}">${c.t('common.continue')}</a></p>`
      : html`<p class="ok" role="status">${c.t('common.done')}</p><p><a href="${BASE}/${id}">${c.t('common.continue')}</a></p>`,
  );
}

async function scopeNames(c: ConsoleRequest): Promise<string[]> {
  if (!c.has('view-clients', 'view-realm')) return [];
  return (await c.api<ClientScopeView[]>('GET', '/client-scopes')).body.map((s) => s.name);
}

function createClientForm(c: ConsoleRequest, scopes: string[]): Html {
  return html`<h2>${c.t('clients.new')}</h2><form method="post" action="${BASE}">${c.csrf}
<label for="c-id">${c.t('clients.newId')}</label><input id="c-id" name="clientId" autocomplete="off">
<label for="c-name">${c.t('clients.name')}</label><input id="c-name" name="name" autocomplete="off">
<fieldset><legend>${c.t('clients.type')}</legend>
<label><input type="radio" name="type" value="confidential" checked> ${c.t('clients.typeConfidential')}</label>
<label><input type="radio" name="type" value="public"> ${c.t('clients.typePublic')}</label></fieldset>
<fieldset><legend>${c.t('clients.grantTypes')}</legend>${GRANTS.map(([name, label]) => html`<label><input type="checkbox" name="${name}"> ${c.t(label)}</label>`)}
<label><input type="checkbox" name="client_credentials_refresh"> ${c.t('clients.grantOption.clientCredentialsRefresh')}</label></fieldset>
<fieldset><legend>${c.t('clients.consent')}</legend><label><input type="checkbox" name="consent_required"> ${c.t('clients.consentOption')}</label></fieldset>
<label for="c-redirects">${c.t('clients.redirectUrisInput')}</label><textarea id="c-redirects" name="redirectUris"></textarea>
<label for="c-origins">${c.t('clients.webOriginsInput')}</label><textarea id="c-origins" name="webOrigins"></textarea>
<label for="c-scopes">${c.t('clients.scopesInput')}</label><input id="c-scopes" name="scopes" autocomplete="off" aria-describedby="c-scopes-note">
<p class="note" id="c-scopes-note">${scopes.length > 0 ? c.t('clients.knownScopes', { scopes: scopes.join(' ') }) : c.t('clients.seeScopes')}</p>
<label for="c-handover">${c.t('clients.handoverTo')}</label><input id="c-handover" name="handoverTo" type="email" autocomplete="off" aria-describedby="c-handover-note">
<p class="note" id="c-handover-note">${c.t('clients.handoverNote')}</p>
<button type="submit">${c.t('clients.create')}</button></form>`;
}
