import type { Router } from 'express';
import { html } from '@hush/common';
import { z } from 'zod';
import { CONSOLE_MOUNT, formOf, notice, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/scopes`;

interface ClientScope {
  id: string;
  name: string;
  description?: string;
  attributes: Record<string, string>;
}

const createForm = z.object({
  identifier: z.url('The API identifier is an absolute URI'),
  name: z.string().trim().optional(),
  scope: z.string().trim().min(1, 'A scope name is required'),
  ttl: z.string().regex(/^\d*$/, 'The token lifetime is a number of seconds').optional(),
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
      'APIs and scopes',
      html`${notice(req)}<ul class="items">${[...apis].map(
        ([identifier, list]) =>
          html`<li><strong>${identifier ? (list[0]?.description ?? identifier) : 'OpenID Connect'}</strong>${identifier ? html` <span class="note">token lifetime ${list[0]?.attributes['hush.api.access_token_ttl'] ?? '?'} s</span>` : ''}<br>${list.map((s) => html`<code>${s.name}</code> `)}</li>`,
      )}</ul>
${
  manage
    ? html`<h2>New API</h2><form method="post" action="${BASE}">${c.csrf}
<label for="api-identifier">Identifier (the audience of its tokens)</label><input id="api-identifier" name="identifier" required autocomplete="off" placeholder="https://api.example.com">
<label for="api-name">Name</label><input id="api-name" name="name" autocomplete="off">
<label for="api-scope">First scope</label><input id="api-scope" name="scope" required autocomplete="off">
<label for="api-ttl">Access token lifetime in seconds (optional)</label><input id="api-ttl" name="ttl" inputmode="numeric" autocomplete="off">
<button type="submit">Create API</button></form>`
    : ''
}`,
    );
  });

  post(router, '/scopes', 2000, async (c, req, res) => {
    const f = formOf(req, createForm);
    await c.api('POST', '/client-scopes', {
      body: { name: f.scope, description: f.name || undefined, attributes: { 'hush.api.identifier': f.identifier, ...(f.ttl ? { 'hush.api.access_token_ttl': f.ttl } : {}) } },
    });
    res.redirect(303, `${BASE}?done=created`);
  });
}
