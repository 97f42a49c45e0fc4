import type { Router } from 'express';
import { html, type Html } from '@hush/common';
import { z } from 'zod';
import { createdId } from './admin-api-client.js';
import {
  beyondAuthority,
  confirmation,
  requireManage,
  CONSOLE_MOUNT,
  firstOf,
  formOf,
  lines,
  notice,
  PAGE_SIZE,
  pager,
  searchForm,
  table,
  text,
  yesNo,
  type ConsoleRequest,
  type ConsoleRoutes,
} from './admin-console-page.js';
import { receiptList, type Receipt } from './receipts.js';

const BASE = `${CONSOLE_MOUNT}/clients`;
const MANAGE = 'manage-clients';

interface Client {
  id: string;
  clientId: string;
  name: string;
  description?: string;
  enabled: boolean;
  publicClient: boolean;
  bearerOnly: boolean;
  standardFlowEnabled: boolean;
  implicitFlowEnabled: boolean;
  serviceAccountsEnabled: boolean;
  consentRequired?: boolean;
  redirectUris: string[];
  webOrigins: string[];
  defaultClientScopes?: string[];
  attributes: Record<string, string>;
  /** Whether this administrator may act on this client (the admin API's rule: no one acts on someone holding more rights). */
  access: { manage: boolean };
}

/** The grants a client may use, by Keycloak's names of its flows. */
function grantsOf(k: Client): string[] {
  return [
    ...(k.standardFlowEnabled ? ['authorization code'] : []),
    ...(k.serviceAccountsEnabled ? ['client credentials'] : []),
    ...(k.implicitFlowEnabled ? ['implicit'] : []),
    ...(k.attributes['oauth2.device.authorization.grant.enabled'] === 'true' ? ['device'] : []),
    ...(k.attributes['use.refresh.tokens'] === 'true' ? ['refresh token'] : []),
  ];
}

const on = z
  .literal('on')
  .optional()
  .transform((v) => v === 'on');
const email = z
  .email('Enter one e-mail address')
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
  ['grant_authorization_code', 'Authorization code (users sign in; with PKCE)'],
  ['grant_client_credentials', 'Client credentials (the client acts for itself)'],
  ['grant_refresh_token', 'Refresh tokens with the interactive grants'],
  ['grant_device', 'Device authorization (TVs, command lines)'],
  ['grant_implicit', 'Implicit (legacy browser apps)'],
] as const;

const clientPath = (id: string) => `/clients/${encodeURIComponent(id)}`;
const idOf = (req: { params: Record<string, unknown> }) => String(req.params['id']);

export function clientPages(router: Router, { get, post }: ConsoleRoutes): void {
  get(router, '/clients', async (c: ConsoleRequest, req) => {
    const search = text(req, 'search');
    const first = firstOf(req);
    const { body: clients } = await c.api<Client[]>('GET', '/clients', {
      query: { clientId: search || undefined, search: search ? 'true' : undefined, first: String(first), max: String(PAGE_SIZE) },
    });
    const [scopes, orgs] = await Promise.all([
      c.has(MANAGE) ? scopeNames(c) : Promise.resolve([]),
      c.has('view-realm', 'view-users') ? c.api<{ id: string; name: string }[]>('GET', '/organizations', { query: { max: '100' } }).then((r) => r.body) : Promise.resolve([]),
    ]);
    c.render(
      'clients',
      'Clients',
      html`${notice(req)}${searchForm(BASE, 'Search clients by client id', search)}
${table(
  `${clients.length === 0 ? 'No client' : `Clients ${first + 1}–${first + clients.length}`}${search ? ` matching ${search}` : ''}`,
  [
    { label: 'Client id', cell: (k) => html`<a href="${BASE}/${k.id}">${k.clientId}</a>` },
    { label: 'Name', cell: (k) => k.name },
    { label: 'Type', cell: (k) => (k.publicClient ? 'public' : 'confidential') },
    { label: 'Grants', cell: (k) => grantsOf(k).join(', ') || '—' },
    { label: 'Organization', cell: (k) => orgs.find((o) => o.id === k.attributes['hush.organization.id'])?.name ?? k.attributes['hush.organization.id'] ?? '—' },
    { label: 'Consent', cell: (k) => (k.consentRequired ? 'asked' : 'not asked') },
    { label: 'Enabled', cell: (k) => yesNo(k.enabled) },
  ],
  clients,
)}
${pager(BASE, { search }, first, PAGE_SIZE, clients.length)}
${c.has(MANAGE) ? createClientForm(c, scopes) : ''}`,
    );
  });

  post(router, '/clients', 20_000, async (c, req, res) => {
    const f = formOf(req, createForm);
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
    shownOnce(c, id, 'Client created', secret);
  });

  get(router, '/clients/:id', async (c, req) => {
    const id = idOf(req);
    const { body: k } = await c.api<Client>('GET', clientPath(id));
    const { body: receipts } = await c.api<Receipt[]>('GET', '/handovers', { query: { subject: id, max: '5' } });
    const grants = [
      k.standardFlowEnabled && 'authorization code',
      k.serviceAccountsEnabled && 'client credentials',
      k.implicitFlowEnabled && 'implicit',
      k.attributes['oauth2.device.authorization.grant.enabled'] === 'true' && 'device',
      k.attributes['use.refresh.tokens'] !== 'false' && k.standardFlowEnabled && 'refresh tokens',
      k.attributes['client_credentials.use_refresh_token'] === 'true' && 'refresh tokens with client credentials',
    ].filter(Boolean);
    const manage = k.access.manage;
    c.render(
      'clients',
      k.clientId,
      html`${notice(req)}<dl><dt>Client id</dt><dd><code>${k.clientId}</code></dd><dt>Name</dt><dd>${k.name}</dd><dt>Type</dt><dd>${k.publicClient ? 'public' : 'confidential'}</dd>
<dt>Grants</dt><dd>${grants.join(', ') || '—'}</dd><dt>Redirect URIs</dt><dd>${k.redirectUris.join(' ') || '—'}</dd><dt>Web origins</dt><dd>${k.webOrigins.join(' ') || '—'}</dd><dt>Scopes</dt><dd>${(k.defaultClientScopes ?? []).join(' ') || '—'}</dd></dl>
${beyondAuthority(c, MANAGE, k, k.clientId)}
${
  manage && !k.publicClient
    ? html`<h2>Secret</h2><form method="post" action="${BASE}/${k.id}/secret">${c.csrf}
<label for="rotate-handover">Hand the new secret to this e-mail address</label><input id="rotate-handover" name="handoverTo" type="email" autocomplete="off" aria-describedby="rotate-note">
<p class="note" id="rotate-note">The old secret stops working at once. With an address, the new one goes to its owner as a one-time link and is never shown here; empty, it is shown to you once.</p>
<button type="submit">Rotate secret</button></form>`
    : ''
}
<h2>Handovers</h2>${receiptList(receipts)}
${manage ? html`<h2>Delete</h2><p><a href="${BASE}/${k.id}/delete">Delete ${k.clientId}…</a></p>` : ''}`,
    );
  });

  post(router, '/clients/:id/secret', 500, async (c, req, res) => {
    const { handoverTo } = formOf(req, z.object({ handoverTo: email }));
    const { body } = await c.api<{ value?: string }>('POST', `${clientPath(idOf(req))}/client-secret`, { query: { handoverTo } });
    if (handoverTo) {
      res.redirect(303, `${BASE}/${idOf(req)}?done=handed-over`);
      return;
    }
    shownOnce(c, idOf(req), 'Secret rotated', body.value);
  });

  get(router, '/clients/:id/delete', async (c, req) => {
    const { body: k } = await c.api<Client>('GET', clientPath(idOf(req)));
    requireManage(k);
    confirmation(c, 'clients', {
      title: `Delete ${k.clientId}?`,
      question: `${k.clientId} will be deleted: its secret and its tokens stop working at once. This cannot be undone.`,
      action: `${BASE}/${k.id}/delete`,
      button: 'Delete client',
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
      ? html`<p>Copy the client secret now: it is not shown again.</p><label for="secret">Client secret</label><input id="secret" readonly value="${secret}" autocomplete="off"><p><a href="${BASE}/${id}">Continue</a></p>`
      : html`<p class="ok" role="status">Done.</p><p><a href="${BASE}/${id}">Continue</a></p>`,
  );
}

async function scopeNames(c: ConsoleRequest): Promise<string[]> {
  if (!c.has('view-clients', 'view-realm')) return [];
  return (await c.api<{ name: string }[]>('GET', '/client-scopes')).body.map((s) => s.name);
}

function createClientForm(c: ConsoleRequest, scopes: string[]): Html {
  return html`<h2>New client</h2><form method="post" action="${BASE}">${c.csrf}
<label for="c-id">Client id (empty: generated)</label><input id="c-id" name="clientId" autocomplete="off">
<label for="c-name">Name</label><input id="c-name" name="name" autocomplete="off">
<fieldset><legend>Type</legend>
<label><input type="radio" name="type" value="confidential" checked> Confidential (has a secret: a server)</label>
<label><input type="radio" name="type" value="public"> Public (no secret: a browser or mobile app)</label></fieldset>
<fieldset><legend>Grant types</legend>${GRANTS.map(([name, label]) => html`<label><input type="checkbox" name="${name}"> ${label}</label>`)}
<label><input type="checkbox" name="client_credentials_refresh"> Refresh tokens with client credentials</label></fieldset>
<fieldset><legend>Consent</legend><label><input type="checkbox" name="consent_required"> Ask people before this client gets their data (a third-party app; the answer is remembered until they revoke it)</label></fieldset>
<label for="c-redirects">Redirect URIs (one a line)</label><textarea id="c-redirects" name="redirectUris"></textarea>
<label for="c-origins">Web origins (one a line)</label><textarea id="c-origins" name="webOrigins"></textarea>
<label for="c-scopes">Scopes (space-separated)</label><input id="c-scopes" name="scopes" autocomplete="off" aria-describedby="c-scopes-note">
<p class="note" id="c-scopes-note">${scopes.length > 0 ? html`Known: ${scopes.join(' ')}` : 'See APIs and scopes.'}</p>
<label for="c-handover">Hand the secret to this e-mail address (confidential clients)</label><input id="c-handover" name="handoverTo" type="email" autocomplete="off" aria-describedby="c-handover-note">
<p class="note" id="c-handover-note">The secret goes to its owner as a one-time link and is never shown here. Empty: it is shown to you once.</p>
<button type="submit">Create client</button></form>`;
}
