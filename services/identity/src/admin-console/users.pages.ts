import type { Router } from 'express';
import { html, type Html } from '@hush/common';
import { z } from 'zod';
import { AdminApiRefusedError, createdId } from './admin-api-client.js';
import {
  beyondAuthority,
  confirmation,
  requireManage,
  CONSOLE_MOUNT,
  firstOf,
  formOf,
  notice,
  PAGE_SIZE,
  pager,
  searchForm,
  table,
  text,
  utc,
  yesNo,
  type ConsoleRequest,
  type ConsoleRoutes,
} from './admin-console-page.js';
import { receiptList, type Receipt } from './receipts.js';

const BASE = `${CONSOLE_MOUNT}/users`;
const MANAGE = 'manage-users';

interface User {
  id: string;
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  enabled: boolean;
  emailVerified: boolean;
  createdTimestamp?: number;
  attributes?: Record<string, string[]>;
  /** Whether this administrator may act on this user (the admin API's rule: no one acts on someone holding more rights). */
  access: { manage: boolean };
}

interface Credential {
  id: string;
  type: string;
  userLabel?: string;
  createdDate?: number;
}

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));
const email = z
  .email('Enter one e-mail address')
  .optional()
  .or(z.literal('').transform(() => undefined));

const createForm = z.object({
  username: z.string().trim().min(1, 'A username is required'),
  email,
  firstName: optional,
  lastName: optional,
  organization: optional,
  handoverTo: email,
});

const passwordForm = z.object({ handoverTo: email, password: optional }).refine((f) => (f.handoverTo === undefined) !== (f.password === undefined), {
  message: 'Give the owner’s e-mail address (the password is generated and handed over) or a new password',
});

const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;
const idOf = (req: { params: Record<string, unknown> }) => String(req.params['id']);

export function userPages(router: Router, { get, post }: ConsoleRoutes): void {
  get(router, '/users', async (c: ConsoleRequest, req) => {
    const search = text(req, 'search');
    const first = firstOf(req);
    const [{ body: users }, { body: count }, orgs] = await Promise.all([
      c.api<User[]>('GET', '/users', { query: { search, first: String(first), max: String(PAGE_SIZE) } }),
      c.api<number>('GET', '/users/count', { query: { search } }),
      organizationsFor(c),
    ]);
    const orgName = (u: User) => {
      const id = u.attributes?.['hush.organization.id']?.[0];
      return id ? (orgs.find((o) => o.id === id)?.name ?? id) : '—';
    };
    c.render(
      'users',
      'Users',
      html`${notice(req)}${searchForm(BASE, 'Search users (username, e-mail, name)', search)}
${table(
  `${count} user${count === 1 ? '' : 's'}${search ? ' match' : ''}${count > PAGE_SIZE ? `; ${first + 1}–${first + users.length} shown` : ''}`,
  [
    { label: 'Username', cell: (u) => html`<a href="${BASE}/${u.id}">${u.username}</a>` },
    { label: 'Name', cell: (u) => [u.firstName, u.lastName].filter(Boolean).join(' ') || '—' },
    { label: 'E-mail', cell: (u) => u.email ?? '—' },
    { label: 'Verified', cell: (u) => (u.email ? yesNo(u.emailVerified) : '—') },
    { label: 'Enabled', cell: (u) => yesNo(u.enabled) },
    { label: 'Organization', cell: orgName },
    { label: 'Created', cell: (u) => (u.createdTimestamp ? utc(u.createdTimestamp) : '—') },
  ],
  users,
)}
${pager(BASE, { search }, first, PAGE_SIZE, users.length)}
${c.has(MANAGE) ? createUserForm(c, orgs) : ''}`,
    );
  });

  post(router, '/users', 2000, async (c, req, res) => {
    const form = formOf(req, createForm);
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
      html`${notice(req)}<dl><dt>Username</dt><dd>${user.username}</dd><dt>E-mail</dt><dd>${user.email ?? '—'}${user.emailVerified ? ' (verified)' : ''}</dd><dt>Name</dt><dd>${[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}</dd><dt>Status</dt><dd>${user.enabled ? 'enabled' : 'disabled'}</dd></dl>
${beyondAuthority(c, MANAGE, user, user.username)}
${
  manage
    ? html`<h2>Account</h2>
<form method="post" action="${BASE}/${id}/enabled">${c.csrf}<input type="hidden" name="enabled" value="${user.enabled ? 'false' : 'true'}"><button type="submit" class="secondary">${user.enabled ? 'Disable' : 'Enable'} ${user.username}</button></form>
<form method="post" action="${BASE}/${id}/logout">${c.csrf}<button type="submit" class="secondary">Sign out everywhere</button></form>
<h2>Password</h2>
<form method="post" action="${BASE}/${id}/password">${c.csrf}
<label for="pw-handover">Hand a new password to this e-mail address</label><input id="pw-handover" name="handoverTo" type="email" required autocomplete="off" value="${user.email ?? ''}" aria-describedby="pw-note">
<p class="note" id="pw-note">A password is generated and sent as a one-time link; you never see it.</p>
<button type="submit">Hand over a new password</button></form>
<form method="post" action="${BASE}/${id}/password">${c.csrf}
<label for="pw-value">Or set a new password yourself</label><input id="pw-value" name="password" type="password" required autocomplete="new-password">
<button type="submit" class="secondary">Set password</button></form>`
    : ''
}
<h2>Second factor</h2>${credentials}
<h2>Handovers</h2>${receiptList(receipts)}
${manage ? html`<h2>Delete</h2><p><a href="${BASE}/${id}/delete">Delete ${user.username}…</a></p>` : ''}`,
    );
  });

  post(router, '/users/:id/enabled', 100, async (c, req, res) => {
    const { enabled } = formOf(req, z.object({ enabled: z.enum(['true', 'false']) }));
    await c.api('PUT', userPath(idOf(req)), { body: { enabled: enabled === 'true' } });
    res.redirect(303, `${BASE}/${idOf(req)}?done=updated`);
  });

  post(router, '/users/:id/logout', 0, async (c, req, res) => {
    await c.api('POST', `${userPath(idOf(req))}/logout`);
    res.redirect(303, `${BASE}/${idOf(req)}?done=signed-out`);
  });

  post(router, '/users/:id/password', 1000, async (c, req, res) => {
    const form = formOf(req, passwordForm);
    await c.api('PUT', `${userPath(idOf(req))}/reset-password`, {
      query: { handoverTo: form.handoverTo },
      body: { type: 'password', temporary: false, ...(form.password !== undefined ? { value: form.password } : {}) },
    });
    res.redirect(303, `${BASE}/${idOf(req)}?done=${form.handoverTo ? 'handed-over' : 'password-set'}`);
  });

  get(router, '/users/:id/credentials/:credentialId/delete', async (c, req) => {
    const { body: user } = await c.api<User>('GET', userPath(idOf(req)));
    requireManage(user);
    confirmation(c, 'users', {
      title: 'Remove this second factor?',
      question: `${user.username} will sign in without it until they set up a new one.`,
      action: `${BASE}/${user.id}/credentials/${encodeURIComponent(String(req.params['credentialId']))}/delete`,
      button: 'Remove second factor',
      back: `${BASE}/${user.id}`,
    });
  });

  post(router, '/users/:id/credentials/:credentialId/delete', 0, async (c, req, res) => {
    await c.api('DELETE', `${userPath(idOf(req))}/credentials/${encodeURIComponent(String(req.params['credentialId']))}`);
    res.redirect(303, `${BASE}/${idOf(req)}?done=credential-removed`);
  });

  get(router, '/users/:id/delete', async (c, req) => {
    const { body: user } = await c.api<User>('GET', userPath(idOf(req)));
    requireManage(user);
    confirmation(c, 'users', {
      title: `Delete ${user.username}?`,
      question: `${user.username} will be deleted: their sessions and tokens end at once. This cannot be undone.`,
      action: `${BASE}/${user.id}/delete`,
      button: 'Delete user',
      back: `${BASE}/${user.id}`,
    });
  });

  post(router, '/users/:id/delete', 0, async (c, req, res) => {
    await c.api('DELETE', userPath(idOf(req)));
    res.redirect(303, `${BASE}?done=deleted`);
  });
}

async function organizationsFor(c: ConsoleRequest): Promise<{ id: string; name: string }[]> {
  if (!c.has('view-realm', 'view-users')) return [];
  return (await c.api<{ id: string; name: string }[]>('GET', '/organizations', { query: { max: '100' } })).body;
}

function createUserForm(c: ConsoleRequest, orgs: { id: string; name: string }[]): Html {
  return html`<h2>New user</h2><form method="post" action="${BASE}">${c.csrf}
<label for="u-username">Username</label><input id="u-username" name="username" required autocomplete="off">
<label for="u-email">E-mail</label><input id="u-email" name="email" type="email" autocomplete="off">
<label for="u-first">First name</label><input id="u-first" name="firstName" autocomplete="off">
<label for="u-last">Last name</label><input id="u-last" name="lastName" autocomplete="off">
${orgs.length > 0 ? html`<label for="u-org">Organization</label><select id="u-org" name="organization"><option value="">None</option>${orgs.map((o) => html`<option value="${o.id}">${o.name}</option>`)}</select>` : ''}
<label for="u-handover">Hand the first password to this e-mail address</label><input id="u-handover" name="handoverTo" type="email" autocomplete="off" aria-describedby="u-handover-note">
<p class="note" id="u-handover-note">A password is generated and sent as a one-time link; you never see it. Empty: the user has no password until you reset it.</p>
<button type="submit">Create user</button></form>`;
}

/** The user's second factors (TOTP, passkeys), with removal when the administrator may act on the user; "not available" when the admin API has no such route. */
async function credentialsOf(c: ConsoleRequest, id: string, manage: boolean): Promise<Html> {
  let list: Credential[];
  try {
    list = (await c.api<Credential[]>('GET', `${userPath(id)}/credentials`)).body;
  } catch (err) {
    if (err instanceof AdminApiRefusedError && err.status === 404) return html`<p class="note">Not available.</p>`;
    throw err;
  }
  const factors = list.filter((k) => k.type !== 'password');
  if (factors.length === 0) return html`<p class="note">None set up.</p>`;
  return html`<ul class="items">${factors.map(
    (k) =>
      html`<li>${k.type === 'otp' ? 'Authenticator app (TOTP)' : k.type === 'webauthn-passwordless' ? 'Passkey' : k.type}${k.userLabel ? html` · ${k.userLabel}` : ''}${manage ? html` · <a href="${BASE}/${id}/credentials/${k.id}/delete">Remove…</a>` : ''}</li>`,
  )}</ul>`;
}
