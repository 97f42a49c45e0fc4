import { fileURLToPath } from 'node:url';
import { catalogueGaps } from '@hush/common/i18n';
import { sourceFiles, wordsInTemplates } from '@hush/testing';
import { MAIL_CATALOGUES } from './messages/index.js';

describe('the e-mail catalogues', () => {
  test('every language has every message, none empty', () => {
    expect(catalogueGaps(MAIL_CATALOGUES)).toEqual([]);
  });

  test('no e-mail template holds words of its own: they all come from the catalogue', async () => {
    expect(await wordsInTemplates(sourceFiles(fileURLToPath(new URL('.', import.meta.url))))).toEqual([]);
  });
});
