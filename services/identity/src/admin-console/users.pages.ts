import type { Router } from 'express';
import { html, type Html } from '@hush/common';
import { z } from 'zod';
import type { CredentialView as Credential, OrganizationView, ReceiptView as Receipt, UserView as User } from '../admin-api/index.js';
import { AdminApiRefusedError, createdId } from './admin-api-client.js';
import {
  beyondAuthority,
  confirmation,
  requireManage,
  CONSOLE_MOUNT,
  formOf,
  listQuery,
  listState,
  notice,
  PAGE_SIZE,
  pager,
  says,
  searchForm,
  table,
  utc,
  yesNo,
  type ConsoleRequest,
  type ConsoleRoutes,
} from './admin-console-page.js';
import { receiptList } from './receipts.js';

const BASE = `${CONSOLE_MOUNT}/users`;
const MANAGE = 'manage-users';
/** The orders the admin API offers for users (`sort`). */
const SORTS = ['username', 'lastName', 'email', 'emailVerified', 'enabled', 'createdTimestamp'];

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));
const email = z
  .email(says('form.email'))
  .optional()
  .or(z.literal('').transform(() => undefined));

const createForm = z.object({
  username: z.string().trim().min(1, says('form.usernameRequired')),
  email,
  firstName: optional,
  lastName: optional,
  organization: optional,
  handoverTo: email,
});

const passwordForm = z.object({ handoverTo: email, password: optional }).refine((f) => (f.handoverTo === undefined) !== (f.password === undefined), {
  message: says('form.passwordOrHandover'),
});

const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;
const idOf = (req: { params: Record<string, unknown> }) => String(req.params['id']);

export function userPages(router: Router, { get, post }: ConsoleRoutes): void {
  get(router, '/users', async (c: ConsoleRequest, req) => {
    const list = listState(req, BASE, ['search'], SORTS, { sort: 'username', direction: 'asc' });
    const search = list.filters['search'];
    const [{ body: users }, { body: count }, orgs] = await Promise.all([
      c.api<User[]>('GET', '/users', { query: { search, ...listQuery(list), max: String(PAGE_SIZE) } }),
      c.api<number>('GET', '/users/count', { query: { search } }),
      organizationsFor(c),
    ]);
    const orgName = (u: User) => {
      const id = u.attributes?.['hush.organization.id']?.[0];
      return id ? (orgs.find((o) => o.id === id)?.name ?? id) : '—';
    };
    const caption =
      count > PAGE_SIZE
        ? c.t('users.captionShown', { count, search: search ? 'yes' : 'no', from: list.first + 1, to: list.first + users.length })
        : c.t('users.caption', { count, search: search ? 'yes' : 'no' });
    c.render(
      'users',
      c.t('users.title'),
      html`${notice(c, req)}${searchForm(c, list, c.t('users.search'))}
${table(
  c,
  caption,
  [
    { label: c.t('users.username'), sort: 'username', id: true, cell: (u) => html`<a href="${BASE}/${u.id}">${u.username}</a>` },
    { label: c.t('users.name'), sort: 'lastName', cell: (u) => [u.firstName, u.lastName].filter(Boolean).join(' ') || '—' },
    { label: c.t('users.email'), sort: 'email', id: true, cell: (u) => u.email ?? '—' },
    { label: c.t('users.verified'), sort: 'emailVerified', cell: (u) => (u.email ? yesNo(c, u.emailVerified) : '—') },
    { label: c.t('users.enabled'), sort: 'enabled', cell: (u) => yesNo(c, u.enabled) },
    { label: c.t('users.secondFactor'), cell: (u) => secondFactors(c, u) },
    { label: c.t('users.organization'), cell: orgName },
    { label: c.t('users.created'), sort: 'createdTimestamp', firstDirection: 'desc', cell: (u) => utc(u.createdTimestamp) },
  ],
  users,
  list,
)}
${pager(c, list, PAGE_SIZE, users.length)}
${c.has(MANAGE) ? createUserForm(c, orgs) : ''}`,
    );
  });

  post(router, '/users', 2000, async (c, req, res) => {
    const form = formOf(c, req, createForm);
    const created = await c.api('POST', '/users', {
      query: { handoverTo: form.handoverTo },
      body: { username: form.username, email: form.email, firstName: form.firstName, lastName: form.lastName, enabled: true },
    });
    const id = createdId(created);
    if (form.organization) await c.api('POST', `/organizations/${encodeURIComponent(form.organization)}/members`, { body: id });
    res.redirect(303, `${BASE}/${id}?done=${form.handoverTo ? 'handed-over' : 'created'}`);
  });

  get(router, '/users/:id', async (c, req) => {
    const id = idOf(req);
    const { body: user } = await c.api<User>('GET', userPath(id));
    const manage = user.access.manage;
    const [credentials, receipts] = await Promise.all([
      credentialsOf(c, id, manage),
      c.api<Receipt[]>('GET', '/handovers', { query: { subject: id, max: '5' } }).then((a) => a.body),
    ]);
    c.render(
      'users',
      user.username,
      html`${notice(c, req)}<dl><dt>${c.t('users.username')}</dt><dd>${user.username}</dd><dt>${c.t('users.email')}</dt><dd>${user.email ? (user.emailVerified ? c.t('users.emailVerified', { email: user.email }) : user.email) : '—'}</dd><dt>${c.t('users.name')}</dt><dd>${[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}</dd><dt>${c.t('users.status')}</dt><dd>${user.enabled ? c.t('users.statusEnabled') : c.t('users.statusDisabled')}</dd><dt>${c.t('users.created')}</dt><dd>${utc(user.createdTimestamp)}</dd></dl>
${beyondAuthority(c, MANAGE, user, user.username)}
${
  manage
    ? html`<h2>${c.t('users.account')}</h2>
<form method="post" action="${BASE}/${id}/enabled">${c.csrf}<input type="hidden" name="enabled" value="${user.enabled ? 'false' : 'true'}"><button type="submit" class="secondary">${user.enabled ? c.t('users.disable', { username: user.username }) : c.t('users.enable', { username: user.username })}</button></form>
<form method="post" action="${BASE}/${id}/logout">${c.csrf}<button type="submit" class="secondary">${c.t('users.signOutEverywhere')}</button></form>
<h2>${c.t('users.password')}</h2>
<form method="post" action="${BASE}/${id}/password">${c.csrf}
<label for="pw-handover">${c.t('users.handoverTo')}</label><input id="pw-handover" name="handoverTo" type="email" required autocomplete="off" value="${user.email ?? ''}" aria-describedby="pw-note">
<p class="note" id="pw-note">${c.t('users.handoverNote')}</p>
<button type="submit">${c.t('users.handOver')}</button></form>
<form method="post" action="${BASE}/${id}/password">${c.csrf}
<label for="pw-value">${c.t('users.setYourself')}</label><input id="pw-value" name="password" type="password" required autocomplete="new-password">
<button type="submit" class="secondary">${c.t('users.setPassword')}</button></form>`
    : ''
}
<h2>${c.t('users.secondFactors')}</h2>${credentials}
<h2>${c.t('users.handovers')}</h2>${receiptList(c, receipts)}
${manage ? html`<h2>${c.t('users.delete')}</h2><p><a href="${BASE}/${id}/delete">${c.t('users.deleteLink', { username: user.username })}</a></p>` : ''}`,
    );
  });

  post(router, '/users/:id/enabled', 100, async (c, req, res) => {
    const { enabled } = formOf(c, req, z.object({ enabled: z.enum(['true', 'false']) }));
    await c.api('PUT', userPath(idOf(req)), { body: { enabled: enabled === 'true' } });
    res.redirect(303, `${BASE}/${idOf(req)}?done=updated`);
  });

  post(router, '/users/:id/logout', 0, async (c, req, res) => {
    await c.api('POST', `${userPath(idOf(req))}/logout`);
    res.redirect(303, `${BASE}/${idOf(req)}?done=signed-out`);
  });

  post(router, '/users/:id/password', 1000, async (c, req, res) => {
    const form = formOf(c, req, passwordForm);
    await c.api('PUT', `${userPath(idOf(req))}/reset-password`, {
      query: { handoverTo: form.handoverTo },
      body: { type: 'password', temporary: false, ...(form.password !== undefined ? { value: form.password } : {}) },
    });
    res.redirect(303, `${BASE}/${idOf(req)}?done=${form.handoverTo ? 'handed-over' : 'password-set'}`);
  });

  get(router, '/users/:id/credentials/:credentialId/delete', async (c, req) => {
    const { body: user } = await c.api<User>('GET', userPath(idOf(req)));
    requireManage(c, user);
    confirmation(c, 'users', {
      title: c.t('users.removeFactorTitle'),
      question: c.t('users.removeFactorQuestion', { username: user.username }),
      action: `${BASE}/${user.id}/credentials/${encodeURIComponent(String(req.params['credentialId']))}/delete`,
      button: c.t('users.removeFactor'),
      back: `${BASE}/${user.id}`,
    });
  });

  post(router, '/users/:id/credentials/:credentialId/delete', 0, async (c, req, res) => {
    await c.api('DELETE', `${userPath(idOf(req))}/credentials/${encodeURIComponent(String(req.params['credentialId']))}`);
    res.redirect(303, `${BASE}/${idOf(req)}?done=credential-removed`);
  });

  get(router, '/users/:id/delete', async (c, req) => {
    const { body: user } = await c.api<User>('GET', userPath(idOf(req)));
    requireManage(c, user);
    confirmation(c, 'users', {
      title: c.t('users.deleteTitle', { username: user.username }),
      question: c.t('users.deleteQuestion', { username: user.username }),
      action: `${BASE}/${user.id}/delete`,
      button: c.t('users.deleteButton'),
      back: `${BASE}/${user.id}`,
    });
  });

  post(router, '/users/:id/delete', 0, async (c, req, res) => {
    await c.api('DELETE', userPath(idOf(req)));
    res.redirect(303, `${BASE}?done=deleted`);
  });
}

/** The user's second factors, by the credential types the admin API reports (`disableableCredentialTypes`). */
function secondFactors(c: ConsoleRequest, u: User): string {
  const names = u.disableableCredentialTypes.map((t) => (t === 'otp' ? c.t('users.totp') : t === 'webauthn-passwordless' ? c.t('users.passkey') : t));
  return names.join(', ') || '—';
}

async function organizationsFor(c: ConsoleRequest): Promise<Pick<OrganizationView, 'id' | 'name'>[]> {
  if (!c.has('view-realm', 'view-users')) return [];
  return (await c.api<OrganizationView[]>('GET', '/organizations', { query: { max: '100' } })).body;
}

function createUserForm(c: ConsoleRequest, orgs: Pick<OrganizationView, 'id' | 'name'>[]): Html {
  return html`<h2>${c.t('users.new')}</h2><form method="post" action="${BASE}">${c.csrf}
<label for="u-username">${c.t('users.username')}</label><input id="u-username" name="username" required autocomplete="off">
<label for="u-email">${c.t('users.email')}</label><input id="u-email" name="email" type="email" autocomplete="off">
<label for="u-first">${c.t('users.firstName')}</label><input id="u-first" name="firstName" autocomplete="off">
<label for="u-last">${c.t('users.lastName')}</label><input id="u-last" name="lastName" autocomplete="off">
${orgs.length > 0 ? html`<label for="u-org">${c.t('users.organization')}</label><select id="u-org" name="organization"><option value="">${c.t('common.none')}</option>${orgs.map((o) => html`<option value="${o.id}">${o.name}</option>`)}</select>` : ''}
<label for="u-handover">${c.t('users.firstHandoverTo')}</label><input id="u-handover" name="handoverTo" type="email" autocomplete="off" aria-describedby="u-handover-note">
<p class="note" id="u-handover-note">${c.t('users.firstHandoverNote')}</p>
<button type="submit">${c.t('users.create')}</button></form>`;
}

/** The user's second factors (TOTP, passkeys), with removal when the administrator may act on the user; "not available" when the admin API has no such route. */
async function credentialsOf(c: ConsoleRequest, id: string, manage: boolean): Promise<Html> {
  let list: Credential[];
  try {
    list = (await c.api<Credential[]>('GET', `${userPath(id)}/credentials`)).body;
  } catch (err) {
    if (err instanceof AdminApiRefusedError && err.status === 404) return html`<p class="note">${c.t('users.factorsUnavailable')}</p>`;
    throw err;
  }
  const factors = list.filter((k) => k.type !== 'password');
  if (factors.length === 0) return html`<p class="note">${c.t('users.noFactors')}</p>`;
  return html`<ul class="items">${factors.map(
    (k) =>
      html`<li>${k.type === 'otp' ? c.t('users.totpLong') : c.t('users.passkey')}${k.userLabel ? html` · ${k.userLabel}` : ''}${manage ? html` · <a href="${BASE}/${id}/credentials/${k.id}/delete">${c.t('users.remove')}</a>` : ''}</li>`,
  )}</ul>`;
}
