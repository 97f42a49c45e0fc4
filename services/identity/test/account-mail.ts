import { Redis } from 'ioredis';
import * as oidc from 'openid-client';
import { Browser, parseForms, type TestSmtp } from '@hush/testing';
import { authorize, clientConfig } from './flows.js';
import { createApiAndClient, type Harness } from './harness.js';

export const REDIRECT = 'http://127.0.0.1:9/callback';

/**
 * identity's settings for sending its account e-mails itself (DELIVERY_MODE=inline: no mail queue,
 * the in-process fallback) to the test's SMTP server, retried promptly, behind a proxy on loopback
 * (tests give each request its own X-Forwarded-For).
 */
export const inlineMail = (smtp: TestSmtp): Record<string, string> => ({
  DELIVERY_MODE: 'inline',
  SMTP_URL: smtp.url,
  RELAY_INTERVAL_MS: '100',
  MAIL_BACKOFF_MS: '100',
  TRUST_PROXY: 'loopback',
});

/** The single link of the newest e-mail to `address` (waiting for it), and the e-mail. */
export async function linkMailedTo(smtp: TestSmtp, address: string, count = 1): Promise<{ link: string; subject: string; text: string }> {
  const mails = await smtp.waitFor(address, count, 10_000);
  const mail = mails[mails.length - 1]!.mail;
  const text = mail.text ?? '';
  const link = /https?:\/\/\S+\/login-actions\/action-token\?key=[A-Za-z0-9_%-]+/.exec(text)?.[0];
  if (!link) throw new Error(`no link in the e-mail:\n${text}`);
  return { link, subject: mail.subject ?? '', text };
}

/** A client that signs people in with a code and refresh tokens, and its openid-client view. */
export async function codeClient(h: Harness) {
  const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
  return { c, config: await clientConfig(h.issuer, c.clientId, c.clientSecret) };
}

/** Signs `username` in through the pages; the refresh token it gets. */
export async function refreshTokenOf(config: oidc.Configuration, scope: string, username: string, password: string): Promise<string> {
  const { callback, verifier, state } = await authorize(config, { redirectUri: REDIRECT, scope, username, password });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return tokens.refresh_token as string;
}

/**
 * Submits the "Forgot password?" form for `login` from a fresh browser, as if from `ip` (the
 * harness trusts X-Forwarded-For from loopback with TRUST_PROXY=loopback): status, page text and time taken.
 */
export async function askForReset(h: Harness, login: string, ip: string): Promise<{ status: number; text: string; ms: number }> {
  const browser = new Browser(new URL(h.issuer).origin);
  const form = await browser.send(`${h.issuer}/login-actions/reset-credentials`, undefined, { 'x-forwarded-for': ip });
  const parsed = parseForms(form.text)[0]!;
  const started = process.hrtime.bigint();
  const res = await browser.send(parsed.action, { ...parsed.hidden, login }, { 'x-forwarded-for': ip });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { status: res.status, text: res.text, ms };
}

/** Signs `username` in to the account console in a fresh browser and changes the account's e-mail address there. */
export async function consoleMovesTo(h: Harness, username: string, password: string, email: string): Promise<void> {
  const account = '/auth/realms/public/account';
  const browser = new Browser(h.url);
  const login = await browser.navigate(`${account}/`);
  const page = await browser.submit(login.html, 0, { username, password });
  const form = parseForms(page.html).find((f) => f.action === `${account}/`);
  if (!form) throw new Error(`no profile form in page:\n${page.html}`);
  const saved = await browser.send(form.action, { ...form.hidden, email });
  if (saved.status !== 303) throw new Error(`the profile was not saved: ${saved.status}`);
}

/** The members of the revocation feed's set (one per revoked grant, token or client). */
export async function revocationCount(h: Harness): Promise<number> {
  const redis = new Redis(h.config.REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    return await redis.zcard(h.config.REVOCATIONS_CHANNEL);
  } finally {
    redis.disconnect();
  }
}

/** A page's text without what differs per response (CSP nonce, CSRF token). */
export const stable = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce').replace(/name="csrf" value="[^"]+"/g, 'csrf');
