import express from 'express';
import supertest from 'supertest';
import { capturingLogger } from '@hush/testing';
import { consolePageErrors, signInPageErrors } from './page-errors.js';

/** An app whose one page fails unexpectedly, with a detail that must stay in the log. */
function failingPage(handler: (logger: ReturnType<typeof capturingLogger>['logger']) => express.ErrorRequestHandler) {
  const { logger, logs } = capturingLogger('identity-error-page');
  const app = express();
  app.get('/page', () => {
    throw new Error('database row 42 is corrupt');
  });
  app.use(handler(logger));
  return { http: supertest(app), logs };
}

describe('identity’s error page for an unexpected failure', () => {
  it('is a 500 in identity’s frame (the product’s header), in the request’s language, with no detail of the failure', async () => {
    const { http, logs } = failingPage(signInPageErrors);
    const de = await http.get('/page').set('Accept-Language', 'de-DE, en;q=0.5');
    expect(de.status).toBe(500);
    expect(de.headers['content-language']).toBe('de');
    expect(de.text).toContain('<html lang="de">');
    expect(de.text).toMatch(/<header class="masthead"><a class="product"[^>]*>Hush<\/a>/);
    expect(de.text).toContain('<h1>Etwas ist schiefgegangen</h1>');
    expect(de.text).toContain('Bei uns ist etwas fehlgeschlagen');
    expect(de.text).not.toMatch(/corrupt|at .*\.ts|Error:/);
    expect(logs.join('')).toContain('database row 42 is corrupt');

    const en = await http.get('/page?kc_locale=en');
    expect(en.text).toContain('<h1>Something went wrong</h1>');
    expect(en.text).toContain('Something failed on our side');
  });

  it('is the same on the consoles’ pages, with the console’s own fault sentence', async () => {
    const { http } = failingPage((logger) => consolePageErrors(logger, 'account.fault'));
    const res = await http.get('/page?ui_locales=de');
    expect(res.status).toBe(500);
    expect(res.text).toContain('Die Kontoverwaltung konnte das nicht ausführen');
    expect(res.text).not.toContain('corrupt');
  });
});
