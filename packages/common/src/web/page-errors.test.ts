import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { CrossOriginFormError, CsrfRejectedError } from './csrf.js';
import { pageErrorHandler, type PageErrorOptions } from './page-errors.js';
import { createLogger } from '../logging/logger.js';

/** An app whose one page throws `err`, with the handler under test; and the lines it logged. */
function pageThrowing(err: unknown, options: PageErrorOptions = { fault: { message: 'Please try again later.' } }) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  const app = express();
  app.get('/page', () => {
    throw err;
  });
  app.use(pageErrorHandler(createLogger({ name: 'test', level: 'info', destination }), options));
  return { http: request(app), lines };
}

describe('the page error handler', () => {
  it('shows a DomainError as it is: its status, code and message on the styled error page', async () => {
    const { http, lines } = pageThrowing(new CrossOriginFormError());
    const res = await http.get('/page');
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<code>cross_origin</code>: This form was sent from another site');
    const nonce = /style-src 'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(res.text).toContain(`<style nonce="${nonce}">`);
    expect(lines).toEqual([]);
  });

  it('turns what a parser throws at bad input into its 4xx page', async () => {
    const { http } = pageThrowing(new URIError('URI malformed'));
    const res = await http.get('/page');
    expect(res.status).toBe(400);
    expect(res.text).toContain('malformed_path');
  });

  it('answers a dependency outage 503 with Retry-After, and logs it as an outage, not a fault', async () => {
    const { http, lines } = pageThrowing(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    const res = await http.get('/page');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(lines.some((l) => l['msg'] === 'page failed')).toBe(false);
  });

  it('shows a fault as the fixed 500 page, with its detail in the log only', async () => {
    const { http, lines } = pageThrowing(new Error('secret internal detail'), { fault: { code: 'server_error', message: 'please try again' } });
    const res = await http.get('/page');
    expect(res.status).toBe(500);
    expect(res.text).toContain('<code>server_error</code>: please try again');
    expect(res.text).not.toContain('secret internal detail');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'page failed', err: { message: 'secret internal detail' } });
  });

  it('lets the service word its errors, and call what it cannot word a fault', async () => {
    const options: PageErrorOptions = {
      fault: { message: 'Please try again later.' },
      describe: (err, known) =>
        known instanceof CsrfRejectedError
          ? { status: 400, code: 'invalid_request', message: 'start again' }
          : (err as { status?: number }).status === 410
            ? { status: 410, message: 'gone' }
            : undefined,
    };
    const refused = await pageThrowing(new CsrfRejectedError(), options).http.get('/page');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('<code>invalid_request</code>: start again');
    const gone = await pageThrowing(Object.assign(new Error('x'), { status: 410 }), options).http.get('/page');
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('gone');
    const { http, lines } = pageThrowing(new RangeError('boom'), options);
    expect((await http.get('/page')).status).toBe(500);
    expect(lines[0]).toMatchObject({ msg: 'page failed' });
  });
});
