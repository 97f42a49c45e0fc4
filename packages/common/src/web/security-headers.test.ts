import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { allowFormTarget, apiSecurity, embeddablePage, nonceOf, pageSecurity, securePage } from './security-headers.js';

const exchange = () => {
  const req = new IncomingMessage(new Socket());
  return { req, res: new ServerResponse(req) };
};

describe('page security headers', () => {
  it('set the CSP with one nonce per response, and the other page headers', () => {
    const { req, res } = exchange();
    const nonce = securePage(req, res);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceOf(res)).toBe(nonce);
    expect(securePage(req, res)).toBe(nonce); // idempotent on one response
    expect(res.getHeader('Content-Security-Policy')).toBe(
      `default-src 'none';style-src 'nonce-${nonce}';script-src 'nonce-${nonce}';img-src 'self' data:;connect-src 'none';form-action 'self';frame-ancestors 'none';base-uri 'none'`,
    );
    expect(res.getHeader('Referrer-Policy')).toBe('same-origin');
    expect(res.getHeader('X-Content-Type-Options')).toBe('nosniff');
    expect(res.getHeader('X-Frame-Options')).toBe('DENY');
    expect(res.getHeader('Cache-Control')).toBe('no-store');
    expect(res.getHeader('Strict-Transport-Security')).toBeUndefined();

    const other = exchange();
    expect(securePage(other.req, other.res)).not.toBe(nonce);
  });

  it('the middleware puts the nonce in res.locals', () => {
    const { req, res } = exchange();
    const locals: Record<string, unknown> = {};
    Object.assign(res, { locals });
    let called = 0;
    pageSecurity()(req, res, () => called++);
    expect(called).toBe(1);
    expect(locals['nonce']).toBe(nonceOf(res));
  });

  it('lets forms end at one more origin (a redirect to an OAuth client), keeping the nonce', () => {
    const { req, res } = exchange();
    const nonce = securePage(req, res);
    allowFormTarget(req, res, 'https://client.example/callback?x=1');
    expect(res.getHeader('Content-Security-Policy')).toContain("form-action 'self' https://client.example;");
    expect(res.getHeader('Content-Security-Policy')).toContain(`script-src 'nonce-${nonce}'`);
    allowFormTarget(req, res, 'javascript:alert(1)');
    allowFormTarget(req, res, 'not a url');
    expect(res.getHeader('Content-Security-Policy')).toContain("form-action 'self' https://client.example;");
  });

  it('nonceOf refuses a response whose headers were never set', () => {
    expect(() => nonceOf(exchange().res)).toThrow(/pageSecurity/);
  });
});

describe('API security headers', () => {
  it('forbid caching, sniffing, framing and Referer, without a nonce', () => {
    const { req, res } = exchange();
    apiSecurity()(req, res, () => {});
    expect(res.getHeader('Cache-Control')).toBe('no-store');
    expect(res.getHeader('X-Content-Type-Options')).toBe('nosniff');
    expect(res.getHeader('Referrer-Policy')).toBe('no-referrer');
    expect(res.getHeader('Content-Security-Policy')).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none'");
  });
});

describe('embeddable pages', () => {
  it('name the framing origins (well-formed ones only), drop X-Frame-Options and may connect to their own origin', () => {
    const { req, res } = exchange();
    const nonce = embeddablePage(req, res, { frameAncestors: ['https://app.example.com', 'http://127.0.0.1:9', "https://x.test; script-src 'unsafe-inline'"], connectSelf: true });
    const csp = String(res.getHeader('Content-Security-Policy'));
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(csp).toContain('frame-ancestors https://app.example.com http://127.0.0.1:9;');
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.getHeader('X-Frame-Options')).toBeUndefined();
  });

  it('stay unframable when no origin is left', () => {
    const { req, res } = exchange();
    embeddablePage(req, res, { frameAncestors: [] });
    expect(String(res.getHeader('Content-Security-Policy'))).toContain("frame-ancestors 'none'");
    expect(res.getHeader('X-Frame-Options')).toBe('DENY');
  });
});
