import { html, layout, type Html } from '@hush/common';
import { csrfField } from '../pages/index.js';
import type { AccountAction } from '@hush/queue';

/*
 * The pages of the e-mailed account links: "Forgot password?", its answer, the page a link opens
 * (set a password, confirm an address), its end, and self-registration. Plain forms on the shared
 * layout, usable without JavaScript and by keyboard.
 */

const hidden = (name: string, value: string | undefined) => (value ? html`<input type="hidden" name="${name}" value="${value}">` : '');
const errorOf = (error: string | undefined) => error && html`<p class="error" role="alert" id="form-error">${error}</p>`;
const back = (href: string | undefined, text = 'Back to sign in') => href && html`<p><a href="${href}">${text}</a></p>`;

export function forgotPasswordPage(o: {
  action: string;
  csrf: string;
  interaction?: string | undefined;
  login?: string;
  error?: string;
  loginHref?: string | undefined;
  nonce: string;
}): string {
  return layout({
    title: 'Forgot your password?',
    nonce: o.nonce,
    body: html`<h1>Forgot your password?</h1>
${errorOf(o.error)}
<p>Enter your username or e-mail address. If it belongs to an account, we send a link to that account's e-mail address to choose a new password.</p>
<form method="post" action="${o.action}">
${csrfField(o.csrf)}${hidden('interaction', o.interaction)}
<label for="login">Username or e-mail</label>
<input id="login" name="login" autocomplete="username" required autofocus value="${o.login ?? ''}">
<button type="submit">Send me a link</button>
</form>
${back(o.loginHref)}`,
  });
}

/** The one answer to a reset request, whether or not the account exists. */
export function checkEmailPage(o: { what: 'reset' | 'verify'; loginHref?: string | undefined; nonce: string }): string {
  const text =
    o.what === 'reset'
      ? 'If that is the username or address of an account, a link to choose a new password is on its way to the account’s e-mail address. It works once, for 15 minutes.'
      : 'If that account is waiting for its address to be confirmed, a new confirmation link is on its way to it.';
  return layout({
    title: 'Check your e-mail',
    nonce: o.nonce,
    body: html`<h1>Check your e-mail</h1>
<p class="ok" role="status">${text}</p>
<p class="note">Nothing arrived? Look in your spam folder, or ask again in a few minutes.</p>
${back(o.loginHref)}`,
  });
}

const ACTION_LABEL: Record<AccountAction, string> = {
  UPDATE_PASSWORD: 'choose a new password',
  CONFIGURE_TOTP: 'set up a second sign-in factor (you continue in your account after signing in)',
  VERIFY_EMAIL: 'confirm your e-mail address',
};

/** What a link opens: the new-password form when it asks for one, else a button (a mail scanner's GET uses nothing). */
export function actionLinkPage(o: { action: string; csrf: string; key: string; username: string; actions: AccountAction[]; error?: string | undefined; nonce: string }): string {
  const password = o.actions.includes('UPDATE_PASSWORD');
  const title = password ? 'Choose a new password' : o.actions.length === 1 && o.actions[0] === 'VERIFY_EMAIL' ? 'Confirm your e-mail address' : 'Update your account';
  const list: Html | string = o.actions.length > 1 ? html`<p>You are asked to:</p><ul>${o.actions.map((a) => html`<li>${ACTION_LABEL[a]}</li>`)}</ul>` : '';
  return layout({
    title,
    nonce: o.nonce,
    body: html`<h1>${title}</h1>
${errorOf(o.error)}
<p>Account: <strong>${o.username}</strong></p>
${list}
<form method="post" action="${o.action}">
${csrfField(o.csrf)}<input type="hidden" name="key" value="${o.key}">
<input type="hidden" name="username" value="${o.username}" autocomplete="username">
${
  password
    ? html`<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" autofocus aria-describedby="password-rules">
<p class="note" id="password-rules">At least 8 characters (at most 72 bytes).</p>
<label for="confirm">New password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="8">
<button type="submit">Save the new password</button>`
    : html`<button type="submit" autofocus>${o.actions.includes('VERIFY_EMAIL') ? 'Confirm my address' : 'Continue'}</button>`
}
</form>`,
  });
}

export function actionLinkUnusablePage(o: { forgotHref: string; nonce: string }): string {
  return layout({
    title: 'Link no longer valid',
    nonce: o.nonce,
    body: html`<h1>This link no longer works</h1>
<p class="error" role="alert">It was already used, has expired, or is incomplete.</p>
<p><a href="${o.forgotHref}">Ask for a new password link</a></p>`,
  });
}

/** The end of a link's actions: back to the login the person came from, or to the application or account. */
export function actionsDonePage(o: {
  passwordChanged: boolean;
  verified: boolean;
  continueHref?: string | undefined;
  appHref?: string | undefined;
  accountHref: string;
  nonce: string;
}): string {
  const what = o.passwordChanged ? 'Your password has been changed.' : o.verified ? 'Your e-mail address is confirmed.' : 'Your account is updated.';
  return layout({
    title: 'Done',
    nonce: o.nonce,
    body: html`<h1>Done</h1>
<p class="ok" role="status">${what}${o.passwordChanged ? ' You were signed out everywhere else.' : ''}</p>
${o.continueHref ? html`<p><a href="${o.continueHref}">Continue signing in</a></p>` : ''}
${o.appHref ? html`<p><a href="${o.appHref}">Back to the application</a></p>` : ''}
<p><a href="${o.accountHref}">Go to your account</a></p>`,
  });
}

export function registerPage(o: {
  action: string;
  csrf: string;
  interaction?: string | undefined;
  username?: string;
  email?: string;
  error?: string | undefined;
  loginHref?: string | undefined;
  nonce: string;
}): string {
  return layout({
    title: 'Register',
    nonce: o.nonce,
    body: html`<h1>Create an account</h1>
${errorOf(o.error)}
<form method="post" action="${o.action}" autocomplete="on">
${csrfField(o.csrf)}${hidden('interaction', o.interaction)}
<label for="username">Username</label>
<input id="username" name="username" autocomplete="username" required autofocus maxlength="64" value="${o.username ?? ''}" aria-describedby="username-rules">
<p class="note" id="username-rules">Letters, digits and . _ @ + - (up to 64).</p>
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${o.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-rules">
<p class="note" id="password-rules">At least 8 characters (at most 72 bytes).</p>
<label for="confirm">Password again</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="8">
<button type="submit">Register</button>
</form>
${back(o.loginHref, 'Back to sign in')}`,
  });
}

export function registeredPage(o: { loginHref?: string | undefined; nonce: string }): string {
  return layout({
    title: 'Confirm your e-mail address',
    nonce: o.nonce,
    body: html`<h1>Confirm your e-mail address</h1>
<p class="ok" role="status">Your account is created. We sent a link to your e-mail address: open it to confirm the address, then sign in.</p>
${back(o.loginHref)}`,
  });
}

/** The login's answer to a self-registered account whose address is not confirmed yet. */
export function verifyEmailFirstPage(o: { action: string; csrf: string; interaction?: string | undefined; login: string; loginHref?: string | undefined; nonce: string }): string {
  return layout({
    title: 'Confirm your e-mail address first',
    nonce: o.nonce,
    body: html`<h1>Confirm your e-mail address first</h1>
<p class="error" role="alert">This account can sign in once its e-mail address is confirmed: open the link we sent to it.</p>
<form method="post" action="${o.action}">
${csrfField(o.csrf)}${hidden('interaction', o.interaction)}<input type="hidden" name="login" value="${o.login}">
<button type="submit">Send the link again</button>
</form>
${back(o.loginHref)}`,
  });
}
