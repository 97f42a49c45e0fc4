import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { CSRF_FIELD, CsrfRejectedError } from './csrf.js';
import { FORM_FIELD_LIMIT, formBodyLimit, formField, pageForms, readForm } from './form.js';
import { pageErrorHandler } from './page-errors.js';
import { createLogger } from '../logging/logger.js';

const forms = pageForms({ csrfKey: Buffer.alloc(32, 3), origins: ['https://hush.example'] });

/** An app with one form POST reading `characters`, answering the fields it read. */
function formApp(characters: number) {
  const app = express();
  app.post('/form', ...forms.read(characters), (req, res) => {
    forms.check(req, 'binding');
    res.json(readForm(req, z.object({ name: z.string().default(''), other: z.string().optional() })));
  });
  app.use(pageErrorHandler(createLogger({ name: 'test', level: 'silent' }), { fault: { message: 'Please try again later.' } }));
  return request(app);
}

describe('the body limit of page forms', () => {
  it('holds every character of the legitimate fields at 12 bytes, plus 4 kB, in whole kB', () => {
    expect(formBodyLimit(0)).toBe(4096);
    expect(formBodyLimit(1024)).toBe(16 * 1024);
    expect(formBodyLimit(512)).toBe(10 * 1024);
    expect(formBodyLimit(1)).toBe(5 * 1024);
  });

  it('refuses a larger body, or too many fields, with a 413 page naming the limit', async () => {
    const http = formApp(0);
    const big = await http
      .post('/form')
      .type('form')
      .send({ name: 'x'.repeat(4097) });
    expect(big.status).toBe(413);
    expect(big.text).toContain('Request body exceeds 4 kB');
    const fields = Object.fromEntries(Array.from({ length: FORM_FIELD_LIMIT + 1 }, (_, i) => [`f${i}`, '1']));
    expect((await http.post('/form').type('form').send(fields)).status).toBe(413);
  });
});

describe('page form POSTs', () => {
  const token = forms.token('binding');

  it('read the fields through a schema, once sent each: a repeated field is absent', async () => {
    const res = await formApp(10).post('/form').type('form').send(`${CSRF_FIELD}=${token}&name=ada&other=a&other=b`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'ada' });
  });

  it('are refused without the token of their binding (400), or from another site (403) before the body is read', async () => {
    const http = formApp(10);
    expect((await http.post('/form').type('form').send({ name: 'x' })).status).toBe(400);
    expect(
      (
        await http
          .post('/form')
          .type('form')
          .send({ [CSRF_FIELD]: forms.token('another'), name: 'x' })
      ).status,
    ).toBe(400);
    const cross = await http
      .post('/form')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ [CSRF_FIELD]: token });
    expect(cross.status).toBe(403);
    expect(
      (
        await http
          .post('/form')
          .set('Origin', 'https://hush.example')
          .type('form')
          .send({ [CSRF_FIELD]: token })
      ).status,
    ).toBe(200);
  });

  it('check throws CsrfRejectedError for a missing, repeated or foreign token', () => {
    expect(() => forms.check({ body: { [CSRF_FIELD]: token } }, 'binding')).not.toThrow();
    for (const body of [undefined, {}, { [CSRF_FIELD]: [token, token] }, { [CSRF_FIELD]: forms.token('other') }]) {
      expect(() => forms.check({ body }, 'binding')).toThrow(CsrfRejectedError);
    }
  });
});

describe('formField', () => {
  it('is the text of a field sent once, else undefined', () => {
    expect(formField({ body: { a: 'x', b: ['1', '2'] } }, 'a')).toBe('x');
    expect(formField({ body: { a: 'x', b: ['1', '2'] } }, 'b')).toBeUndefined();
    expect(formField({ body: { a: 'x' } }, 'toString')).toBeUndefined();
    expect(formField({}, 'a')).toBeUndefined();
  });
});
