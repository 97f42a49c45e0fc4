import type { Router } from 'express';
import { html } from '@hush/common';
import { z } from 'zod';
import type { ClientScopeView as ClientScope } from '../admin-api/index.js';
import { CONSOLE_MOUNT, formOf, notice, says, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/scopes`;

const createForm = z.object({
  identifier: z.url(says('form.apiIdentifier')),
  name: z.string().trim().optional(),
  scope: z.string().trim().min(1, says('form.scopeRequired')),
  ttl: z.string().regex(/^\d*$/, says('form.ttlNumber')).optional(),
});

/** APIs (resource servers) and their scopes, as the admin API's client scopes show them; a new API with its first scope. */
export function scopePages(router: Router, { get, post }: ConsoleRoutes): void {
  get(router, '/scopes', async (c: ConsoleRequest, req) => {
    const { body: scopes } = await c.api<ClientScope[]>('GET', '/client-scopes');
    const apis = new Map<string, ClientScope[]>();
    for (const s of scopes) {
      const api = s.attributes['hush.api.identifier'] ?? '';
      apis.set(api, [...(apis.get(api) ?? []), s]);
    }
    const manage = c.has('manage-realm', 'manage-clients');
    c.render(
      'scopes',
      c.t('scopes.title'),
      html`${notice(c, req)}<ul class="items">${[...apis].map(
        ([identifier, list]) =>
          html`<li><strong>${identifier ? (list[0]?.description ?? identifier) : c.t('scopes.openid')}</strong>${identifier ? html` <span class="note">${c.t('scopes.tokenLifetime', { seconds: list[0]?.attributes['hush.api.access_token_ttl'] ?? '?' })}</span>` : ''}<br>${list.map((s) => html`<code>${s.name}</code> `)}</li>`,
      )}</ul>
${
  manage
    ? html`<h2>${c.t('scopes.new')}</h2><form method="post" action="${BASE}">${c.csrf}
<label for="api-identifier">${c.t('scopes.identifier')}</label><input id="api-identifier" name="identifier" required autocomplete="off" placeholder="https://api.example.com">
<label for="api-name">${c.t('scopes.name')}</label><input id="api-name" name="name" autocomplete="off">
<label for="api-scope">${c.t('scopes.firstScope')}</label><input id="api-scope" name="scope" required autocomplete="off">
<label for="api-ttl">${c.t('scopes.ttl')}</label><input id="api-ttl" name="ttl" inputmode="numeric" autocomplete="off">
<button type="submit">${c.t('scopes.create')}</button></form>`
    : ''
}`,
    );
  });

  post(router, '/scopes', 2000, async (c, req, res) => {
    const f = formOf(c, req, createForm);
    await c.api('POST', '/client-scopes', {
      body: { name: f.scope, description: f.name || undefined, attributes: { 'hush.api.identifier': f.identifier, ...(f.ttl ? { 'hush.api.access_token_ttl': f.ttl } : {}) } },
    });
    res.redirect(303, `${BASE}?done=created`);
  });
}
