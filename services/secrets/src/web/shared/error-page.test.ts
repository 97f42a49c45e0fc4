import express from 'express';
import supertest from 'supertest';
import { CsrfRejectedError, pageErrorHandler } from '@hush/common';
import { capturingLogger } from '@hush/testing';
import { secretsErrorPage } from './error-page.js';
import { pageLocale } from './page-locale.js';

/** The web app's error handling around pages that fail: unexpectedly, or by a refused form. */
function app() {
  const { logger, logs } = capturingLogger('secrets-error-page');
  const web = express();
  web.use(pageLocale('http://secrets.test'));
  web.get('/fails', () => {
    throw new Error('redis said NOAUTH for key s:42');
  });
  web.post('/form', () => {
    throw new CsrfRejectedError();
  });
  web.use(pageErrorHandler(logger, { fault: { message: 'errors.fault' }, render: secretsErrorPage }));
  return { http: supertest(web), logs };
}

describe('the secrets service’s error page', () => {
  it('shows an unexpected failure as a 500 in the service’s frame and the page’s language, its detail only in the log', async () => {
    const { http, logs } = app();
    const res = await http.get('/fails').set('Accept-Language', 'de');
    expect(res.status).toBe(500);
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toMatch(/<header class="masthead"><a class="product"[^>]*>Hush<\/a>/);
    expect(res.text).toContain('<h1>Etwas ist schiefgegangen</h1>');
    expect(res.text).not.toMatch(/NOAUTH|s:42|Error:/);
    expect(logs.join('')).toContain('NOAUTH');
    expect((await http.get('/fails')).text).toContain('Something failed on our side');
  });

  it('words a refused form in the page’s language', async () => {
    const res = await app().http.post('/form?kc_locale=de');
    expect(res.status).toBe(400);
    expect(res.text).toContain('Das Formular ist abgelaufen');
  });
});
