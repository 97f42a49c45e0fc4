import { catalogueGaps } from '@hush/common/i18n';
import { MAIL_CATALOGUES } from './messages/index.js';

describe('the e-mail catalogues', () => {
  test('every language has every message, none empty', () => {
    expect(catalogueGaps(MAIL_CATALOGUES)).toEqual([]);
  });
});
