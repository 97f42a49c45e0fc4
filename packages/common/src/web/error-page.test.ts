import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { errorPage, sendErrorPage } from './error-page.js';
import { nonceOf } from './security-headers.js';

describe('the error page', () => {
  it('escapes the message and code, and styles itself with the nonce', () => {
    const page = errorPage({ status: 400, message: '<b>bad</b>', code: 'x"y', nonce: 'n0nce' });
    expect(page).toContain('<style nonce="n0nce">');
    expect(page).toContain('<p class="error" role="alert"><code>x&quot;y</code>: &lt;b&gt;bad&lt;/b&gt;</p>');
    expect(page).toContain('<title>Cannot continue · Hush</title>');
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).toContain('<main>');
  });

  it('is sent with the page headers, the status and the error’s own headers', () => {
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    const chunks: string[] = [];
    res.end = ((chunk: string) => {
      chunks.push(chunk);
      return res;
    }) as typeof res.end;
    sendErrorPage(req, res, { status: 429, message: 'Slow down', headers: { 'Retry-After': '3' } });
    expect(res.statusCode).toBe(429);
    expect(res.getHeader('Retry-After')).toBe('3');
    expect(res.getHeader('Content-Security-Policy')).toContain(`'nonce-${nonceOf(res)}'`);
    expect(chunks[0]).toContain(`<style nonce="${nonceOf(res)}">`);
  });
});
