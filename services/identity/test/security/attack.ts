import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Response } from 'supertest';
import type * as oidc from 'openid-client';
import { Browser, parseForms } from '@hush/testing';
import { confirmEnrolment, secondFactorDeps, startEnrolment } from '../../src/login/index.js';
import { codeAt } from '../../src/login/totp.js';
import { authorizationUrl, clientConfig } from '../flows.js';
import { createApiAndClient, type Harness } from '../harness.js';

/** What the attack tests of this folder share: sign-in pages reached as a browser would, and tallies of answers. */

export const REDIRECT = 'http://127.0.0.1:9/callback';
export const PASSWORD = 'correct horse battery staple';

/** `n` requests sent at once (none awaits another); their answers in sending order. */
export function atOnce<T>(n: number, send: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i)));
}

/** How many answers had each status: `{ 401: 5, 429: 15 }`. */
export function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/** A client's address as a trusted proxy (the test, with TRUST_PROXY=loopback) reports it. */
export const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** A client people sign in to (authorization code), as openid-client sees it, and a scope of its API. */
export async function signInClient(h: Harness): Promise<{ config: oidc.Configuration; scope: string }> {
  const c = await createApiAndClient(h, { grants: 'authorization_code,refresh_token', redirectUri: REDIRECT });
  return { config: await clientConfig(h.issuer, c.clientId, c.clientSecret), scope: `openid ${c.read}` };
}

/** A new sign-in opened from `ip` (at `client`, else a new one): the browser, the login form, and a poster of it. */
export async function loginForm(
  h: Harness,
  ip: string,
  client?: Awaited<ReturnType<typeof signInClient>>,
): Promise<{ browser: Browser; form: { action: string; hidden: Record<string, string> }; post: (username: string, password: string) => Promise<Response> }> {
  const { config, scope } = client ?? (await signInClient(h));
  const { url } = await authorizationUrl(config, REDIRECT, scope);
  const browser = new Browser(url.origin);
  const res = await browser.send(url.toString(), undefined, from(ip));
  const page = await browser.send(String(res.headers['location']), undefined, from(ip));
  const form = parseForms(page.text)[0] as { action: string; hidden: Record<string, string> };
  /** Posts the login form with `username` and `password`. */
  const post = (username: string, password: string) => browser.send(form.action, { ...form.hidden, username, password }, from(ip));
  return { browser, form, post };
}

export const isConsent = (html: string) => html.includes('<h1>Allow ');

/** A person with PASSWORD and a TOTP credential enrolled a step ago (the current step's code is unused): its secret and recovery codes. */
export async function personWithTotp(h: Harness, redis: Redis) {
  const username = `p-${randomBytes(4).toString('hex')}`;
  const user = await h.cli<{ id: string }>('users', 'create', username, '--password', PASSWORD);
  const deps = secondFactorDeps(h.config, h.identity.context, redis).secondFactor;
  const enrolment = await startEnrolment(deps, user.id, username);
  const secret = enrolment.secretText.replace(/ /g, '');
  const codes = (await confirmEnrolment(deps, { userId: user.id, binding: user.id, pending: enrolment.pending, code: codeAt(secret, Date.now() - 30_000) })) as string[];
  return { username, id: user.id, secret, codes };
}

/** A six-digit code that is not `code`. */
export const otherThan = (code: string, shift = 500_000) => String((Number(code) + shift) % 1_000_000).padStart(6, '0');
