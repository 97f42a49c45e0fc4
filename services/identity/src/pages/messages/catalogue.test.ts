import { catalogueGaps } from '@hush/common/i18n';
import { PAGE_CATALOGUES } from './index.js';

describe('identity’s page catalogues', () => {
  test('every language has every message of every other, none empty', () => {
    expect(catalogueGaps(PAGE_CATALOGUES)).toEqual([]);
  });

  test('a catalogue lacking a key another has is reported', () => {
    const { signOut: _dropped, ...chrome } = PAGE_CATALOGUES.de.chrome;
    expect(catalogueGaps({ en: PAGE_CATALOGUES.en, de: { ...PAGE_CATALOGUES.de, chrome } })).toEqual(['de lacks chrome.signOut']);
  });
});
