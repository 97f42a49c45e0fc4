import type { Router } from 'express';
import { html } from '@hush/common';
import { z } from 'zod';
import { createdId } from './admin-api-client.js';
import { confirmation, CONSOLE_MOUNT, firstOf, formOf, notice, PAGE_SIZE, pager, searchForm, text, type ConsoleRequest, type ConsoleRoutes } from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/organizations`;

interface Organization {
  id: string;
  name: string;
  alias: string;
  enabled: boolean;
  description?: string;
}

const createForm = z.object({ name: z.string().trim().min(1, 'A name is required'), description: z.string().optional() });

export function organizationPages(router: Router, { get, post }: ConsoleRoutes): void {
  get(router, '/organizations', async (c: ConsoleRequest, req) => {
    const search = text(req, 'search');
    const first = firstOf(req);
    const { body: orgs } = await c.api<Organization[]>('GET', '/organizations', { query: { search, first: String(first), max: String(PAGE_SIZE) } });
    c.render(
      'organizations',
      'Organizations',
      html`${notice(req)}${searchForm(BASE, 'Search organizations', search)}
${orgs.length === 0 ? html`<p class="note">No organization${search ? ' matches' : ' yet'}.</p>` : ''}
<ul class="items">${orgs.map((o) => html`<li><strong>${o.name}</strong> <span class="note">${o.alias}${o.enabled ? '' : ' · disabled'}</span>${o.description ? html`<br>${o.description}` : ''}${c.has('manage-realm') ? html`<br><a href="${BASE}/${o.id}/delete">Delete ${o.name}</a>` : ''}</li>`)}</ul>
${pager(BASE, { search }, first, PAGE_SIZE, orgs.length)}
${c.has('manage-realm') ? html`<h2>New organization</h2><form method="post" action="${BASE}">${c.csrf}<label for="org-name">Name</label><input id="org-name" name="name" required autocomplete="off"><label for="org-description">Description (optional)</label><input id="org-description" name="description" autocomplete="off"><button type="submit">Create organization</button></form>` : ''}`,
    );
  });

  post(router, '/organizations', 2000, async (c, req, res) => {
    const form = formOf(req, createForm);
    const created = await c.api('POST', '/organizations', { body: { name: form.name, description: form.description || undefined } });
    res.redirect(303, `${BASE}?done=created&search=${encodeURIComponent(form.name)}#${createdId(created)}`);
  });

  get(router, '/organizations/:id/delete', async (c, req) => {
    const { body: org } = await c.api<Organization>('GET', `/organizations/${encodeURIComponent(String(req.params['id']))}`);
    confirmation(c, 'organizations', {
      title: `Delete ${org.name}?`,
      question: `The organization ${org.name} will be deleted. This cannot be undone.`,
      action: `${BASE}/${org.id}/delete`,
      button: 'Delete organization',
      back: BASE,
    });
  });

  post(router, '/organizations/:id/delete', 0, async (c, req, res) => {
    await c.api('DELETE', `/organizations/${encodeURIComponent(String(req.params['id']))}`);
    res.redirect(303, `${BASE}?done=deleted`);
  });
}
