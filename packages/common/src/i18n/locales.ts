/**
 * The languages our pages and e-mails are written in, and how one is chosen for a person. Rules:
 * - a language tag is matched on its primary subtag, case-insensitively (`de-AT` reads German);
 *   a tag we do not speak is skipped, never an error;
 * - the order of preference is Keycloak's names first: `kc_locale` (a language switcher's choice),
 *   then `ui_locales` (a client's hint, a space-separated list in order), then the language cookie
 *   a switcher set, then `Accept-Language` by its q-values, then English.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** How each language names itself, for a language switcher (in that language, so a reader finds theirs). */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = { en: 'English', de: 'Deutsch' };

/** The locale of a BCP 47 tag, or undefined when we do not speak it. */
export function localeOf(tag: unknown): Locale | undefined {
  if (typeof tag !== 'string' || tag.length > 35) return undefined;
  const primary = tag.trim().split(/[-_]/)[0]?.toLowerCase();
  return LOCALES.find((l) => l === primary);
}

/** `Accept-Language`'s tags by preference (q-value, then order); `*` and q=0 left out. */
export function acceptedTags(header: string | undefined): string[] {
  if (!header || header.length > 1000) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag !== '' && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((t) => t.tag);
}

export interface LocaleHints {
  /** The `kc_locale` query parameter. */
  kcLocale?: unknown;
  /** The `ui_locales` query parameter (space-separated tags). */
  uiLocales?: unknown;
  /** The signed-in person's own choice (an account's `locale` attribute). */
  accountLocale?: string | null | undefined;
  /** The language cookie's value. */
  cookie?: string | undefined;
  acceptLanguage?: string | undefined;
}

/** The first locale we speak among the hints, in the order of preference above. */
export function chooseLocale(hints: LocaleHints): Locale {
  return firstSpoken([hints.kcLocale, ...uiTags(hints.uiLocales), hints.accountLocale, hints.cookie, ...acceptedTags(hints.acceptLanguage)]);
}

export interface MailLocaleHints {
  /** What the request that causes the e-mail says: `kc_locale`, `ui_locales`, the language cookie. */
  kcLocale?: unknown;
  uiLocales?: unknown;
  cookie?: string | undefined;
  /** The recipient's own choice (an account's `locale` attribute). */
  accountLocale?: string | null | undefined;
  /** The triggering request's `Accept-Language`. */
  acceptLanguage?: string | undefined;
}

/**
 * The language of an e-mail a request causes: what that request asks for (`kc_locale`,
 * `ui_locales`, a switcher's cookie), then the recipient's own `locale` attribute, then the
 * request's `Accept-Language`, then English. The recipient's choice outranks the browser's
 * general preference, but not a language the request names for this very flow.
 */
export function chooseMailLocale(hints: MailLocaleHints): Locale {
  return firstSpoken([hints.kcLocale, ...uiTags(hints.uiLocales), hints.cookie, hints.accountLocale, ...acceptedTags(hints.acceptLanguage)]);
}

/** `ui_locales`' tags (an overlong value is ignored). */
const uiTags = (uiLocales: unknown): string[] => (typeof uiLocales === 'string' && uiLocales.length <= 200 ? uiLocales.split(' ') : []);

function firstSpoken(candidates: unknown[]): Locale {
  for (const tag of candidates) {
    const locale = localeOf(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
