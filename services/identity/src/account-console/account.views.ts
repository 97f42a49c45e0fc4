import { html, type Html } from '@hush/common';
import { csrfField } from '../pages/index.js';
import type { FieldError } from './profile.js';
import { ACCOUNT_PAGES } from './account-nav.js';
import type { User } from '../users/index.js';

/*
 * The account console's page bodies (the console layout around them is consolePage). Plain
 * forms: usable without JavaScript and by keyboard; each carries the session's CSRF token.
 */

const notice = (ok: string | undefined, error: string | undefined): Html =>
  html`${ok && html`<p class="ok" role="status">${ok}</p>`}${error && html`<p class="error" role="alert">${error}</p>`}`;

const fieldError = (errors: readonly FieldError[], field: string) => errors.find((e) => e.field === field);
const described = (errors: readonly FieldError[], field: string) => (fieldError(errors, field) ? html` aria-invalid="true" aria-describedby="${field}-error"` : '');
const errorText = (errors: readonly FieldError[], field: string) => {
  const e = fieldError(errors, field);
  return e && html`<p class="error" id="${field}-error">${e.text}</p>`;
};

export interface ProfileView {
  user: User;
  csrf: string;
  /** What was typed, when the form comes back with errors. */
  typed?: { firstName: string; lastName: string; email: string };
  errors?: readonly FieldError[];
  ok?: string;
}

export function profileBody(v: ProfileView): Html {
  const errors = v.errors ?? [];
  const value = (field: 'firstName' | 'lastName' | 'email') => v.typed?.[field] ?? v.user[field] ?? '';
  return html`${notice(v.ok, errors.length > 0 ? 'The profile was not saved: correct the fields marked below.' : undefined)}
<form method="post" action="${ACCOUNT_PAGES.profile}">
${csrfField(v.csrf)}
<label for="username">Username</label>
<input id="username" value="${v.user.username}" readonly aria-describedby="username-note">
<p class="note" id="username-note">The username cannot be changed.</p>
<label for="firstName">First name</label>
<input id="firstName" name="firstName" autocomplete="given-name" maxlength="255" value="${value('firstName')}"${described(errors, 'firstName')}>
${errorText(errors, 'firstName')}
<label for="lastName">Last name</label>
<input id="lastName" name="lastName" autocomplete="family-name" maxlength="255" value="${value('lastName')}"${described(errors, 'lastName')}>
${errorText(errors, 'lastName')}
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="${value('email')}"${described(errors, 'email')}>
${errorText(errors, 'email')}
${v.user.email && html`<p class="note">${v.user.emailVerified ? 'This address is verified.' : 'This address is not verified.'}</p>`}
<button type="submit">Save</button>
</form>`;
}

export function passwordBody(v: { csrf: string; error?: string; ok?: string }): Html {
  return html`${notice(v.ok, v.error)}
<p>Changing your password signs you out everywhere else: other browsers and devices, and the applications signed in with your account.</p>
<form method="post" action="${ACCOUNT_PAGES.password}">
${csrfField(v.csrf)}
<label for="current">Current password</label>
<input id="current" name="current" type="password" autocomplete="current-password" required>
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required aria-describedby="password-note">
<p class="note" id="password-note">At least 8 characters (at most 72 bytes).</p>
<label for="confirm">Confirm new password</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">Change password</button>
</form>`;
}

export function applicationsBody(v: { csrf: string; apps: { clientId: string; name: string; scopes: string[] }[]; ok?: string }): Html {
  if (v.apps.length === 0) return html`${notice(v.ok, undefined)}<p>No application has access to your account.</p>`;
  return html`${notice(v.ok, undefined)}
<p>These applications may act with your account. Revoking one signs it out and it must ask you again.</p>
<ul class="items">${v.apps.map(
    (app) => html`<li><h2>${app.name}</h2>
<p class="note">Client <code>${app.clientId}</code>; access: ${app.scopes.map((s, i) => html`${i > 0 && ', '}<code>${s}</code>`)}</p>
<form method="post" action="${ACCOUNT_PAGES.applications}/revoke">${csrfField(v.csrf)}<input type="hidden" name="client" value="${app.clientId}"><button type="submit" class="danger" aria-label="Revoke access of ${app.name}">Revoke access</button></form></li>`,
  )}</ul>`;
}

const signOutLabel = (current: boolean) => (current ? 'Sign out here' : 'Sign out');
const when = (ms: number) => (ms > 0 ? new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : 'unknown');

export function sessionsBody(v: {
  csrf: string;
  sessions: { id: string; start: number; lastAccess: number; clients: string[]; current: boolean }[];
  clientName: (clientId: string) => string;
  ok?: string;
}): Html {
  return html`${notice(v.ok, undefined)}
<p>Where you are signed in. Signing a session out ends it and the applications' access through it.</p>
<ul class="items">${v.sessions.map(
    (s) => html`<li><h2>${s.current ? 'This browser' : `Session started ${when(s.start)}`}</h2>
<dl><dt>Started</dt><dd>${when(s.start)}</dd><dt>Last active</dt><dd>${when(s.lastAccess)}</dd><dt>Applications</dt><dd>${s.clients.map((c) => v.clientName(c)).join(', ') || 'none'}</dd></dl>
<form method="post" action="${ACCOUNT_PAGES.sessions}/end">${csrfField(v.csrf)}<input type="hidden" name="session" value="${s.id}"><button type="submit" class="secondary" aria-label="${signOutLabel(s.current)}, the session started ${when(s.start)}">${signOutLabel(s.current)}</button></form></li>`,
  )}</ul>
<form method="post" action="${ACCOUNT_PAGES.sessions}/end-all">${csrfField(v.csrf)}<button type="submit" class="danger">Sign out all sessions</button></form>`;
}
