import type { Request, RequestHandler, Response } from 'express';
import { chooseLocale, DEFAULT_LOCALE, localeOf, LOCALES, LOCALE_NAMES, type Locale } from '@hush/common/i18n';
import { cookieHeader, readCookie } from './cookies.js';
import { pageMessages, type PageMessages } from './messages/index.js';

/** The cookie that keeps a language switcher's choice (`hush_locale`); a year, the whole site. */
export const LOCALE_COOKIE = 'hush_locale';
const LOCALE_COOKIE_SECONDS = 365 * 86400;

/**
 * The language of every page (common/i18n's order: `kc_locale`, `ui_locales`, this cookie,
 * `Accept-Language`, English), kept in `res.locals` for the page and named in Content-Language.
 * A `kc_locale` we speak is a switcher's choice: it is remembered in the cookie, as Keycloak's
 * login pages remember theirs.
 */
export function pageLocale(baseUrl: string): RequestHandler {
  const secure = baseUrl.startsWith('https:');
  return (req, res, next) => {
    const chosen = localeOf(req.query['kc_locale']);
    const cookie = readCookie(req, LOCALE_COOKIE);
    const locale = chooseLocale({ kcLocale: chosen, uiLocales: req.query['ui_locales'], cookie, acceptLanguage: req.headers['accept-language'] });
    if (chosen !== undefined && cookie !== chosen) {
      res.appendHeader('Set-Cookie', cookieHeader(LOCALE_COOKIE, chosen, { path: '/', maxAge: LOCALE_COOKIE_SECONDS, secure, sameSite: 'Lax' }));
    }
    res.locals['locale'] = locale;
    res.setHeader('Content-Language', locale);
    next();
  };
}

/** The page's language (English when the middleware did not run: a page of a router mounted elsewhere). */
export const localeOfPage = (res: Response): Locale => (res.locals['locale'] as Locale | undefined) ?? DEFAULT_LOCALE;

/** The page's messages. */
export const wordsOf = (res: Response): PageMessages => pageMessages(localeOfPage(res));

/** This page's address in each language we speak (the switcher's links): `kc_locale` set, `ui_locales` dropped. */
export function languageLinks(req: Pick<Request, 'originalUrl'>, current: Locale): { locale: Locale; name: string; href: string; current: boolean }[] {
  const url = new URL(req.originalUrl, 'http://page.invalid');
  url.searchParams.delete('ui_locales');
  return LOCALES.map((locale) => {
    url.searchParams.set('kc_locale', locale);
    return { locale, name: LOCALE_NAMES[locale], href: `${url.pathname}${url.search}`, current: locale === current };
  });
}
