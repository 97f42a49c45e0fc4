import { fileURLToPath } from 'node:url';
import { catalogueGaps } from '@hush/common/i18n';
import { sourceFiles, wordsInTemplates } from '@hush/testing';
import { PAGE_CATALOGUES } from './index.js';

describe('the pages’ catalogues', () => {
  test('every language has every message of every other, none empty', () => {
    expect(catalogueGaps(PAGE_CATALOGUES)).toEqual([]);
  });

  test('no page template holds words of its own: they all come from the catalogue', async () => {
    const web = fileURLToPath(new URL('../..', import.meta.url));
    expect(await wordsInTemplates(sourceFiles(web))).toEqual([]);
  });
});
