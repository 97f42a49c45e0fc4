import { html } from '../web/html.js';
import { acceptedTags, chooseLocale, chooseMailLocale, localeOf } from './locales.js';
import { catalogueGaps, messageCatalogue, type Translation } from './messages.js';

const en = {
  greeting: 'Hello <strong>{name}</strong>',
  days: '{count, plural, one {# day} other {# days}}',
  nested: { link: 'Read <a>the guide</a> first' },
};
const de: Translation<typeof en> = {
  greeting: 'Hallo <strong>{name}</strong>',
  days: '{count, plural, one {# Tag} other {# Tage}}',
  nested: { link: 'Lies zuerst <a>die Anleitung</a>' },
};

describe('choosing a language', () => {
  test('kc_locale, then ui_locales, then the cookie, then Accept-Language, then English', () => {
    expect(chooseLocale({ kcLocale: 'de', uiLocales: 'en', cookie: 'en', acceptLanguage: 'en' })).toBe('de');
    expect(chooseLocale({ uiLocales: 'fr de-CH en', cookie: 'en' })).toBe('de');
    expect(chooseLocale({ kcLocale: 'fr', cookie: 'de', acceptLanguage: 'en' })).toBe('de');
    expect(chooseLocale({ acceptLanguage: 'fr-FR, en;q=0.5, de-AT;q=0.8' })).toBe('de');
    expect(chooseLocale({ acceptLanguage: 'fr, *;q=0.1' })).toBe('en');
    expect(chooseLocale({})).toBe('en');
  });

  test('odd input is skipped, never an error', () => {
    expect(localeOf(['de'])).toBeUndefined();
    expect(localeOf('x'.repeat(100))).toBeUndefined();
    expect(localeOf('DE_de')).toBe('de');
    expect(acceptedTags('de;q=0, en;q=abc')).toEqual(['en']);
    expect(chooseLocale({ kcLocale: { a: 1 }, uiLocales: 42 })).toBe('en');
  });
});

describe('choosing an e-mail’s language', () => {
  test('the request’s own hints, then the recipient’s locale attribute, then Accept-Language, then English', () => {
    expect(chooseMailLocale({ uiLocales: 'de', accountLocale: 'en', acceptLanguage: 'en' })).toBe('de');
    expect(chooseMailLocale({ kcLocale: 'en', accountLocale: 'de' })).toBe('en');
    expect(chooseMailLocale({ cookie: 'de', accountLocale: 'en' })).toBe('de');
    expect(chooseMailLocale({ accountLocale: 'de', acceptLanguage: 'en' })).toBe('de');
    expect(chooseMailLocale({ accountLocale: 'fr', acceptLanguage: 'de-AT, en;q=0.5' })).toBe('de');
    expect(chooseMailLocale({ accountLocale: null })).toBe('en');
  });
});

describe('messages', () => {
  const messages = messageCatalogue({ en, de });

  test('plural rules are the language’s', () => {
    expect(messages('en').text('days', { count: 1 })).toBe('1 day');
    expect(messages('de').text('days', { count: 3 })).toBe('3 Tage');
  });

  test('text leaves the content of tags; html escapes arguments and keeps our tags', () => {
    expect(messages('en').text('greeting', { name: '<b>x</b>' })).toBe('Hello <b>x</b>');
    expect(String(messages('de').html('greeting', { name: '<b>x</b>' }))).toBe('Hallo <strong>&lt;b&gt;x&lt;/b&gt;</strong>');
    const a = (chunks: unknown[]) => html`<a href="/guide">${chunks as string[]}</a>`;
    expect(String(messages('de').html('nested.link', { a }))).toBe('Lies zuerst <a href="/guide">die Anleitung</a>');
  });

  test('dates are absolute, in UTC and in the language', () => {
    const at = Date.UTC(2026, 0, 1, 12, 30) / 1000;
    expect(messages('en').dateTime(at)).toMatch(/^Thursday,? 1 January 2026,? at 12:30 UTC$/);
    expect(messages('de').dateTime(at)).toMatch(/^Donnerstag, 1\. Januar 2026 um 12:30 UTC$/);
  });
});

describe('catalogue gaps', () => {
  test('name each key a language lacks and each empty message', () => {
    expect(catalogueGaps({ en, de })).toEqual([]);
    expect(catalogueGaps({ en: { a: 'A', b: { c: 'C' } }, de: { a: ' ', d: 'D' } })).toEqual(['en lacks d', 'de has an empty a', 'de lacks b.c']);
  });
});
