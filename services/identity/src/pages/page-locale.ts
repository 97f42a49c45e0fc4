import type { Request, Response } from 'express';
import { chooseLocale, localeOf, LOCALES, LOCALE_NAMES, type Locale } from '@hush/common/i18n';
import { pageMessages, type PageMessages } from './messages/index.js';

/** The cookie that keeps a language switcher's choice on identity's pages; a year. */
export const LOCALE_COOKIE = 'hush_locale';
const LOCALE_COOKIE_SECONDS = 365 * 86400;

export interface LanguageLink {
  locale: Locale;
  name: string;
  href: string;
  current: boolean;
}

/**
 * The language of an identity page (common/i18n's order: `kc_locale`, `ui_locales` (the
 * authorization request's, for the sign-in pages), this cookie, `Accept-Language`, English),
 * named in Content-Language. A `kc_locale` we speak is a switcher's choice: remembered in the
 * cookie, as Keycloak's login pages remember theirs.
 */
export function pageLocale(req: Request, res: Response, uiLocales?: unknown): Locale {
  const chosen = localeOf(req.query['kc_locale']);
  const cookie = readCookie(req, LOCALE_COOKIE);
  const locale = chooseLocale({ kcLocale: chosen, uiLocales: uiLocales ?? req.query['ui_locales'], cookie, acceptLanguage: req.headers['accept-language'] });
  if (chosen !== undefined && cookie !== chosen && !res.headersSent) {
    res.appendHeader('Set-Cookie', `${LOCALE_COOKIE}=${chosen}; Path=/; Max-Age=${LOCALE_COOKIE_SECONDS}; SameSite=Lax${req.secure ? '; Secure' : ''}`);
  }
  if (!res.headersSent) res.setHeader('Content-Language', locale);
  return locale;
}

/** The page's messages in its language. */
export const wordsFor = (req: Request, res: Response, uiLocales?: unknown): PageMessages => pageMessages(pageLocale(req, res, uiLocales));

/** This page's address in each language we speak (the switcher's links): `kc_locale` set, `ui_locales` dropped. */
export function languageLinks(req: Pick<Request, 'originalUrl'>, current: Locale): LanguageLink[] {
  const url = new URL(req.originalUrl, 'http://page.invalid');
  url.searchParams.delete('ui_locales');
  return LOCALES.map((locale) => {
    url.searchParams.set('kc_locale', locale);
    return { locale, name: LOCALE_NAMES[locale], href: `${url.pathname}${url.search}`, current: locale === current };
  });
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
