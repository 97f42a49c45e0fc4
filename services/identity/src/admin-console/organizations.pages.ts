import type { Router } from 'express';
import { html } from '@hush/common';
import { z } from 'zod';
import type { OrganizationView as Organization } from '../admin-api/index.js';
import { createdId } from './admin-api-client.js';
import {
  confirmation,
  CONSOLE_MOUNT,
  formOf,
  listQuery,
  listState,
  notice,
  PAGE_SIZE,
  pager,
  says,
  searchForm,
  type ConsoleRequest,
  type ConsoleRoutes,
} from './admin-console-page.js';

const BASE = `${CONSOLE_MOUNT}/organizations`;

const createForm = z.object({ name: z.string().trim().min(1, says('form.nameRequired')), description: z.string().optional() });

export function organizationPages(router: Router, { get, post }: ConsoleRoutes): void {
  get(router, '/organizations', async (c: ConsoleRequest, req) => {
    const list = listState(req, BASE, ['search'], [], { sort: '', direction: 'asc' });
    const search = list.filters['search'];
    const { first } = listQuery(list);
    const { body: orgs } = await c.api<Organization[]>('GET', '/organizations', { query: { search, first, max: String(PAGE_SIZE) } });
    const manage = c.has('manage-realm');
    c.render(
      'organizations',
      c.t('organizations.title'),
      html`${notice(c, req)}${searchForm(c, list, c.t('organizations.search'))}
${orgs.length === 0 ? html`<p class="note">${search ? c.t('organizations.noMatch') : c.t('organizations.none')}</p>` : ''}
<ul class="items">${orgs.map((o) => html`<li><strong>${o.name}</strong> <span class="note">${o.alias}${o.enabled ? '' : ` · ${c.t('organizations.disabled')}`}</span>${o.description ? html`<br>${o.description}` : ''}${manage ? html`<br><a href="${BASE}/${o.id}/delete">${c.t('organizations.deleteLink', { name: o.name })}</a>` : ''}</li>`)}</ul>
${pager(c, list, PAGE_SIZE, orgs.length)}
${manage ? html`<h2>${c.t('organizations.new')}</h2><form method="post" action="${BASE}">${c.csrf}<label for="org-name">${c.t('organizations.name')}</label><input id="org-name" name="name" required autocomplete="off"><label for="org-description">${c.t('organizations.description')}</label><input id="org-description" name="description" autocomplete="off"><button type="submit">${c.t('organizations.create')}</button></form>` : ''}`,
    );
  });

  post(router, '/organizations', 2000, async (c, req, res) => {
    const form = formOf(c, req, createForm);
    const created = await c.api('POST', '/organizations', { body: { name: form.name, description: form.description || undefined } });
    res.redirect(303, `${BASE}?done=created&search=${encodeURIComponent(form.name)}#${createdId(created)}`);
  });

  get(router, '/organizations/:id/delete', async (c, req) => {
    const { body: org } = await c.api<Organization>('GET', `/organizations/${encodeURIComponent(String(req.params['id']))}`);
    confirmation(c, 'organizations', {
      title: c.t('organizations.deleteTitle', { name: org.name }),
      question: c.t('organizations.deleteQuestion', { name: org.name }),
      action: `${BASE}/${org.id}/delete`,
      button: c.t('organizations.deleteButton'),
      back: BASE,
    });
  });

  post(router, '/organizations/:id/delete', 0, async (c, req, res) => {
    await c.api('DELETE', `/organizations/${encodeURIComponent(String(req.params['id']))}`);
    res.redirect(303, `${BASE}?done=deleted`);
  });
}
