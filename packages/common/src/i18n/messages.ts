import { IntlMessageFormat } from 'intl-messageformat';
import { html, type Html, type Interpolation } from '../web/html.js';
import { DEFAULT_LOCALE, type Locale } from './locales.js';

/**
 * Messages from a catalogue, in ICU MessageFormat (plural and select per language, `{name}`
 * arguments) through formatjs' intl-messageformat. Rules:
 * - a catalogue is a tree of messages; every language's catalogue has the English one's shape
 *   (`Translation<typeof en>`), so a missing or extra key fails to compile;
 * - `text` gives plain text (e-mail subjects and text bodies, attributes): markup tags in a
 *   message (`<strong>…</strong>`) leave their content only;
 * - `html` gives markup: the message's own text and every string argument are escaped, an `Html`
 *   argument goes in as it is, and the tags a message may hold are `strong`, `em`, `code` and
 *   the ones the caller passes as functions (a link, say);
 * - a key a catalogue lacks at run time (a newer message in an older deployment) falls back to
 *   English, then to the key itself; a message never throws at a person.
 */
export type Catalogue = { readonly [key: string]: string | Catalogue };

/** A catalogue of the same keys as `C` (the English one), in another language. */
export type Translation<C> = { readonly [K in keyof C]: C[K] extends string ? string : Translation<C[K]> };

/** Every message's dotted key in catalogue `C`. */
export type MessageKey<C> = {
  [K in keyof C & string]: C[K] extends string ? K : `${K}.${MessageKey<C[K]>}`;
}[keyof C & string];

export type TextValues = Readonly<Record<string, string | number | Date>>;
export type HtmlValues = Readonly<Record<string, string | number | Date | Html | ((chunks: Interpolation[]) => Html)>>;

export interface Messages<K extends string> {
  readonly locale: Locale;
  text(key: K, values?: TextValues): string;
  html(key: K, values?: HtmlValues): Html;
  /** "Thursday, 1 January 2026 at 12:30 UTC" in the locale: absolute, for what is read later. */
  dateTime(unixSeconds: number): string;
}

const INTL_LOCALE: Record<Locale, string> = { en: 'en-GB', de: 'de-DE' };

const htmlTags = {
  strong: (chunks: Interpolation[]) => html`<strong>${chunks}</strong>`,
  em: (chunks: Interpolation[]) => html`<em>${chunks}</em>`,
  code: (chunks: Interpolation[]) => html`<code>${chunks}</code>`,
};
const textTag = (chunks: unknown[]) => chunks.join('');
const textTags = { strong: textTag, em: textTag, code: textTag, a: textTag };

/** Flattens a catalogue into its dotted keys (for the parity test and the lookups). */
export function flatten(catalogue: Catalogue, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/**
 * The messages of one catalogue set (a service's, the e-mails'), one `Messages` per locale.
 * Messages are parsed on first use and kept; date formatters likewise (a formatter loads its
 * locale's ICU data, which a process that never formats a date should not hold).
 */
export function messageCatalogue<C extends Catalogue>(catalogues: { readonly en: C } & { readonly [L in Exclude<Locale, 'en'>]: Translation<C> }) {
  const flat = new Map<Locale, Map<string, string>>();
  const compiled = new Map<string, IntlMessageFormat>();
  const dates = new Map<Locale, Intl.DateTimeFormat>();
  const sourceOf = (locale: Locale, key: string): [Locale, string] => {
    for (const l of [locale, DEFAULT_LOCALE]) {
      let messages = flat.get(l);
      if (!messages) flat.set(l, (messages = flatten(catalogues[l])));
      const message = messages.get(key);
      if (message !== undefined) return [l, message];
    }
    return [DEFAULT_LOCALE, key];
  };
  const formatOf = (locale: Locale, key: string): IntlMessageFormat => {
    const [l, message] = sourceOf(locale, key);
    const id = `${l}\u0000${key}`;
    let format = compiled.get(id);
    if (!format) compiled.set(id, (format = new IntlMessageFormat(message, INTL_LOCALE[l])));
    return format;
  };

  const forLocale = new Map<Locale, Messages<MessageKey<C>>>();
  return (locale: Locale): Messages<MessageKey<C>> => {
    let messages = forLocale.get(locale);
    if (messages) return messages;
    messages = {
      locale,
      text: (key, values = {}) => {
        const out = formatOf(locale, key).format<string>({ ...textTags, ...values });
        return Array.isArray(out) ? out.join('') : String(out);
      },
      html: (key, values = {}) => {
        const out = formatOf(locale, key).format<Html>({ ...htmlTags, ...values });
        return html`${out}`;
      },
      dateTime: (unixSeconds) => {
        let format = dates.get(locale);
        if (!format) dates.set(locale, (format = new Intl.DateTimeFormat(INTL_LOCALE[locale], { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'short' })));
        return `${format.format(new Date(unixSeconds * 1000))} UTC`;
      },
    };
    forLocale.set(locale, messages);
    return messages;
  };
}

/**
 * What keeps a set of catalogues from being complete: for each language, every key another
 * language has and it lacks, and every empty message ("de lacks mail.subject"). Empty when whole.
 */
export function catalogueGaps(catalogues: Readonly<Record<string, Catalogue>>): string[] {
  const flat = Object.entries(catalogues).map(([locale, c]) => [locale, flatten(c)] as const);
  const keys = new Set(flat.flatMap(([, messages]) => [...messages.keys()]));
  const gaps: string[] = [];
  for (const [locale, messages] of flat)
    for (const key of keys) {
      const message = messages.get(key);
      if (message === undefined) gaps.push(`${locale} lacks ${key}`);
      else if (message.trim() === '') gaps.push(`${locale} has an empty ${key}`);
    }
  return gaps;
}
