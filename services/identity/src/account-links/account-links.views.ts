import { html, type Html } from '@hush/common';
import type { AccountAction } from '@hush/queue';
import { csrfField, identityPage, type PageMessages } from '../pages/index.js';
import { MAX_PASSWORD_BYTES } from '../users/index.js';

/*
 * The pages of the e-mailed account links: "Forgot password?", its answer, the page a link opens
 * (set a password, confirm an address), its end, and self-registration. Plain forms in identity's
 * frame, usable without JavaScript and by keyboard; every word from `m` (the page's language).
 */

interface LinkPage {
  m: PageMessages;
  nonce: string;
}

const hidden = (name: string, value: string | undefined) => (value ? html`<input type="hidden" name="${name}" value="${value}">` : '');
const errorOf = (error: string | undefined) => error && html`<p class="error" role="alert" id="form-error">${error}</p>`;
const back = (m: PageMessages, href: string | undefined) => href && html`<p><a href="${href}">${m.text('links.backToSignIn')}</a></p>`;
const page = (o: LinkPage, title: string, body: Html) => identityPage({ m: o.m, nonce: o.nonce, title, body });

export function forgotPasswordPage(
  o: LinkPage & { action: string; csrf: string; interaction?: string | undefined; login?: string; error?: string; loginHref?: string | undefined },
): string {
  const { m } = o;
  return page(
    o,
    m.text('links.forgot.title'),
    html`<h1>${m.text('links.forgot.title')}</h1>
${errorOf(o.error)}
<p>${m.text('links.forgot.intro')}</p>
<form method="post" action="${o.action}">
${csrfField(o.csrf)}${hidden('interaction', o.interaction)}
<label for="login">${m.text('links.forgot.login')}</label>
<input id="login" name="login" autocomplete="username" required autofocus value="${o.login ?? ''}">
<button type="submit">${m.text('links.forgot.submit')}</button>
</form>
${back(m, o.loginHref)}`,
  );
}

/** The one answer to a reset request, whether or not the account exists. */
export function checkEmailPage(o: LinkPage & { what: 'reset' | 'verify'; lifespanSeconds?: number; loginHref?: string | undefined }): string {
  const { m } = o;
  const text = o.what === 'reset' ? m.text('links.checkEmail.reset', { minutes: Math.ceil((o.lifespanSeconds ?? 900) / 60) }) : m.text('links.checkEmail.verify');
  return page(
    o,
    m.text('links.checkEmail.title'),
    html`<h1>${m.text('links.checkEmail.title')}</h1>
<p class="ok" role="status">${text}</p>
<p class="note">${m.text('links.checkEmail.nothing')}</p>
${back(m, o.loginHref)}`,
  );
}

/** What a link opens: the new-password form when it asks for one, else a button (a mail scanner's GET uses nothing). */
export function actionLinkPage(o: LinkPage & { action: string; csrf: string; key: string; username: string; actions: AccountAction[]; error?: string | undefined }): string {
  const { m } = o;
  const password = o.actions.includes('UPDATE_PASSWORD');
  const title = m.text(password ? 'links.action.newPassword' : o.actions.length === 1 && o.actions[0] === 'VERIFY_EMAIL' ? 'links.action.confirmAddress' : 'links.action.update');
  const list: Html | string =
    o.actions.length > 1 ? html`<p>${m.text('links.action.askedTo')}</p><ul>${o.actions.map((a) => html`<li>${m.text(`links.action.${a}`)}</li>`)}</ul>` : '';
  return page(
    o,
    title,
    html`<h1>${title}</h1>
${errorOf(o.error)}
<p>${m.html('links.action.account', { username: o.username })}</p>
${list}
<form method="post" action="${o.action}">
${csrfField(o.csrf)}<input type="hidden" name="key" value="${o.key}">
<input type="hidden" name="username" value="${o.username}" autocomplete="username">
${
  password
    ? html`<label for="password">${m.text('links.action.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" autofocus aria-describedby="password-rules">
<p class="note" id="password-rules">${m.text('links.passwordRules', { max: MAX_PASSWORD_BYTES })}</p>
<label for="confirm">${m.text('links.action.again')}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="8">
<button type="submit">${m.text('links.action.save')}</button>`
    : html`<button type="submit" autofocus>${m.text(o.actions.includes('VERIFY_EMAIL') ? 'links.action.confirm' : 'links.action.continue')}</button>`
}
</form>`,
  );
}

export function actionLinkUnusablePage(o: LinkPage & { forgotHref: string }): string {
  const { m } = o;
  return page(
    o,
    m.text('links.unusable.title'),
    html`<h1>${m.text('links.unusable.heading')}</h1>
<p class="error" role="alert">${m.text('links.unusable.body')}</p>
<p><a href="${o.forgotHref}">${m.text('links.unusable.askAgain')}</a></p>`,
  );
}

/** The end of a link's actions: back to the login the person came from, or to the application or account. */
export function actionsDonePage(
  o: LinkPage & { passwordChanged: boolean; verified: boolean; continueHref?: string | undefined; appHref?: string | undefined; accountHref: string },
): string {
  const { m } = o;
  const what = m.text(o.passwordChanged ? 'links.done.passwordChanged' : o.verified ? 'links.done.verified' : 'links.done.updated');
  return page(
    o,
    m.text('links.done.title'),
    html`<h1>${m.text('links.done.title')}</h1>
<p class="ok" role="status">${what}</p>
${o.continueHref ? html`<p><a href="${o.continueHref}">${m.text('links.done.continue')}</a></p>` : ''}
${o.appHref ? html`<p><a href="${o.appHref}">${m.text('links.done.app')}</a></p>` : ''}
<p><a href="${o.accountHref}">${m.text('links.done.account')}</a></p>`,
  );
}

export function registerPage(
  o: LinkPage & {
    action: string;
    csrf: string;
    interaction?: string | undefined;
    username?: string;
    email?: string;
    error?: string | undefined;
    loginHref?: string | undefined;
  },
): string {
  const { m } = o;
  return page(
    o,
    m.text('links.register.title'),
    html`<h1>${m.text('links.register.heading')}</h1>
${errorOf(o.error)}
<form method="post" action="${o.action}" autocomplete="on">
${csrfField(o.csrf)}${hidden('interaction', o.interaction)}
<label for="username">${m.text('links.register.username')}</label>
<input id="username" name="username" autocomplete="username" required autofocus maxlength="64" value="${o.username ?? ''}" aria-describedby="username-rules">
<p class="note" id="username-rules">${m.text('links.register.usernameRules')}</p>
<label for="email">${m.text('links.register.email')}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${o.email ?? ''}">
<label for="password">${m.text('links.register.password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-rules">
<p class="note" id="password-rules">${m.text('links.passwordRules', { max: MAX_PASSWORD_BYTES })}</p>
<label for="confirm">${m.text('links.register.again')}</label>
<input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="8">
<button type="submit">${m.text('links.register.submit')}</button>
</form>
${back(m, o.loginHref)}`,
  );
}

export function registeredPage(o: LinkPage & { loginHref?: string | undefined }): string {
  const { m } = o;
  return page(
    o,
    m.text('links.registered.title'),
    html`<h1>${m.text('links.registered.title')}</h1>
<p class="ok" role="status">${m.text('links.registered.body')}</p>
${back(m, o.loginHref)}`,
  );
}

/** The login's answer to a self-registered account whose address is not confirmed yet. */
export function verifyEmailFirstPage(o: LinkPage & { action: string; csrf: string; interaction?: string | undefined; login: string; loginHref?: string | undefined }): string {
  const { m } = o;
  return page(
    o,
    m.text('links.verifyFirst.title'),
    html`<h1>${m.text('links.verifyFirst.title')}</h1>
<p class="error" role="alert">${m.text('links.verifyFirst.body')}</p>
<form method="post" action="${o.action}">
${csrfField(o.csrf)}${hidden('interaction', o.interaction)}<input type="hidden" name="login" value="${o.login}">
<button type="submit">${m.text('links.verifyFirst.resend')}</button>
</form>
${back(m, o.loginHref)}`,
  );
}
