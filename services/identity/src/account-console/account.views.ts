import { html, type Html } from '@hush/common';
import { LOCALE_NAMES, LOCALES } from '@hush/common/i18n';
import { csrfField, type PageMessages } from '../pages/index.js';
import type { FieldError } from './profile.js';
import { ACCOUNT_PAGES } from './account-nav.js';
import type { User } from '../users/index.js';

/*
 * The account console's page bodies (the console layout around them is consolePage). Plain
 * forms: usable without JavaScript and by keyboard; each carries the session's CSRF token. Every
 * word from the page's messages (`m`).
 */

const notice = (ok: string | undefined, error: string | undefined): Html =>
  html`${ok && html`<p class="ok" role="status">${ok}</p>`}${error && html`<p class="error" role="alert">${error}</p>`}`;

/** A field's error in the page's language, from Keycloak's message key and parameters. */
function fieldErrorText(m: PageMessages, e: FieldError): string {
  switch (e.errorMessage) {
    case 'error-user-attribute-read-only':
      return m.text('account.profile.errors.usernameReadOnly');
    case 'error-invalid-length':
      return m.text('account.profile.errors.tooLong', { field: e.params[0] ?? '', max: e.params[2] ?? '' });
    case 'invalidEmailMessage':
      return m.text('account.profile.errors.invalidEmail');
    default:
      return m.text('account.profile.errors.invalidLocale');
  }
}

export interface ProfileView {
  m: PageMessages;
  user: User;
  csrf: string;
  /** What was typed, when the form comes back with errors. */
  typed?: { firstName: string; lastName: string; email: string; locale: string };
  errors?: readonly FieldError[];
  ok?: string | undefined;
}

export function profileBody(v: ProfileView): Html {
  const { m } = v;
  const errors = v.errors ?? [];
  const fieldError = (field: string) => errors.find((e) => e.field === field);
  const described = (field: string) => (fieldError(field) ? html` aria-invalid="true" aria-describedby="${field}-error"` : '');
  const errorText = (field: string) => {
    const e = fieldError(field);
    return e && html`<p class="error" id="${field}-error">${fieldErrorText(m, e)}</p>`;
  };
  const value = (field: 'firstName' | 'lastName' | 'email') => v.typed?.[field] ?? v.user[field] ?? '';
  const locale = v.typed?.locale ?? v.user.locale ?? '';
  return html`${notice(v.ok, errors.length > 0 ? m.text('account.profile.notSaved') : undefined)}
<form method="post" action="${ACCOUNT_PAGES.profile}">
${csrfField(v.csrf)}
<label for="username">${m.text('account.profile.username')}</label>
<input id="username" value="${v.user.username}" readonly aria-describedby="username-note">
<p class="note" id="username-note">${m.text('account.profile.usernameNote')}</p>
<label for="firstName">${m.text('account.profile.firstName')}</label>
<input id="firstName" name="firstName" autocomplete="given-name" maxlength="255" value="${value('firstName')}"${described('firstName')}>
${errorText('firstName')}
<label for="lastName">${m.text('account.profile.lastName')}</label>
<input id="lastName" name="lastName" autocomplete="family-name" maxlength="255" value="${value('lastName')}"${described('lastName')}>
${errorText('lastName')}
<label for="email">${m.text('account.profile.email')}</label>
<input id="email" name="email" type="email" autocomplete="email" maxlength="254" value="${value('email')}"${described('email')}>
${errorText('email')}
${v.user.email && html`<p class="note">${m.text(v.user.emailVerified ? 'account.profile.verified' : 'account.profile.unverified')}</p>`}
<label for="locale">${m.text('account.profile.language')}</label>
<select id="locale" name="locale" aria-describedby="locale-note${fieldError('locale') ? ' locale-error' : ''}"${fieldError('locale') ? html` aria-invalid="true"` : ''}>
<option value=""${locale === '' ? html` selected` : ''}>${m.text('account.profile.languageDefault')}</option>
${LOCALES.map((l) => html`<option value="${l}" lang="${l}"${locale === l ? html` selected` : ''}>${LOCALE_NAMES[l]}</option>`)}
</select>
<p class="note" id="locale-note">${m.text('account.profile.languageNote')}</p>
${errorText('locale')}
<button type="submit">${m.text('account.profile.save')}</button>
</form>`;
}

export function passwordBody(v: { m: PageMessages; csrf: string; maxBytes: number; error?: string | undefined; ok?: string | undefined }): Html {
  const { m } = v;
  return html`${notice(v.ok, v.error)}
<p>${m.text('account.password.intro')}</p>
<form method="post" action="${ACCOUNT_PAGES.password}">
${csrfField(v.csrf)}
<label for="current">${m.text('account.password.current')}</label>
<input id="current" name="current" type="password" autocomplete="current-password" required>
<label for="password">${m.text('account.password.new')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" required aria-describedby="password-note">
<p class="note" id="password-note">${m.text('account.password.newNote', { max: v.maxBytes })}</p>
<label for="confirm">${m.text('account.password.confirm')}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">${m.text('account.password.submit')}</button>
</form>`;
}

export function applicationsBody(v: { m: PageMessages; csrf: string; apps: { clientId: string; name: string; scopes: string[] }[]; ok?: string | undefined }): Html {
  const { m } = v;
  if (v.apps.length === 0) return html`${notice(v.ok, undefined)}<p>${m.text('account.applications.none')}</p>`;
  return html`${notice(v.ok, undefined)}
<p>${m.text('account.applications.intro')}</p>
<ul class="items">${v.apps.map(
    (app) => html`<li><h2>${app.name}</h2>
<p class="note">${m.html('account.applications.access', { clientId: app.clientId, scopes: html`${app.scopes.map((s, i) => html`${i > 0 && ', '}<code>${s}</code>`)}` })}</p>
<form method="post" action="${ACCOUNT_PAGES.applications}/revoke">${csrfField(v.csrf)}<input type="hidden" name="client" value="${app.clientId}"><button type="submit" class="danger" aria-label="${m.text('account.applications.revokeLabel', { name: app.name })}">${m.text('account.applications.revoke')}</button></form></li>`,
  )}</ul>`;
}

export function sessionsBody(v: {
  m: PageMessages;
  csrf: string;
  sessions: { id: string; start: number; lastAccess: number; clients: string[]; current: boolean }[];
  clientName: (clientId: string) => string;
  ok?: string | undefined;
}): Html {
  const { m } = v;
  const when = (ms: number) => (ms > 0 ? m.dateTime(Math.floor(ms / 1000)) : m.text('account.sessions.unknown'));
  const signOutLabel = (current: boolean) => m.text(current ? 'account.sessions.signOutHere' : 'account.sessions.signOut');
  return html`${notice(v.ok, undefined)}
<p>${m.text('account.sessions.intro')}</p>
<ul class="items">${v.sessions.map(
    (s) => html`<li><h2>${s.current ? m.text('account.sessions.thisBrowser') : m.text('account.sessions.startedAt', { when: when(s.start) })}</h2>
<dl><dt>${m.text('account.sessions.started')}</dt><dd>${when(s.start)}</dd><dt>${m.text('account.sessions.lastActive')}</dt><dd>${when(s.lastAccess)}</dd><dt>${m.text(
      'account.sessions.applications',
    )}</dt><dd>${s.clients.map((c) => v.clientName(c)).join(', ') || m.text('account.sessions.none')}</dd></dl>
<form method="post" action="${ACCOUNT_PAGES.sessions}/end">${csrfField(v.csrf)}<input type="hidden" name="session" value="${s.id}"><button type="submit" class="secondary" aria-label="${m.text(
      'account.sessions.signOutLabel',
      { action: signOutLabel(s.current), when: when(s.start) },
    )}">${signOutLabel(s.current)}</button></form></li>`,
  )}</ul>
<form method="post" action="${ACCOUNT_PAGES.sessions}/end-all">${csrfField(v.csrf)}<button type="submit" class="danger">${m.text('account.sessions.signOutAll')}</button></form>`;
}
