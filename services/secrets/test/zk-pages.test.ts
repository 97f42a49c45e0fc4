import { createHash } from 'node:crypto';
import { parseForms } from '@hush/testing';
import { zkEncode, zkKeys, zkParseLink, zkShare } from '@hush/zk';
import { secretsPerFile, type Harness } from './harness.js';

/**
 * The pages of a zero-knowledge secret, as a browser receives them (docs/zero-knowledge.md §8):
 * the script from this origin only, under the page's nonce and with Subresource Integrity that
 * matches what is served; a CSP without `unsafe-eval` or any other origin; no Referer; the page's
 * read answers the envelope only for the right key proof and the page's token; and neither the
 * key nor a secret key shows up in a log line or a metric label.
 */
let h: Harness;
let auth: string;
secretsPerFile((started, account) => {
  h = started;
  auth = account;
});

const directives = (csp: string) =>
  Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...values]) => [name, values]),
  );

it('the reveal page loads our script under its nonce with the integrity of what is served, in a CSP that allows nothing else', async () => {
  const { link } = await zkShare({ baseUrl: h.url, authorization: auth }, { text: 'behind the script' });
  const page = await h.http.get(new URL(link).pathname);
  expect(page.status).toBe(200);
  expect(page.headers['referrer-policy']).toBe('no-referrer');
  const csp = directives(String(page.headers['content-security-policy']));
  const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(csp['script-src']?.[0] ?? '')?.[1];
  expect(csp['script-src']).toHaveLength(1);
  expect(nonce).toBeDefined();
  expect(csp['connect-src']).toEqual(["'self'"]);
  expect(csp['default-src']).toEqual(["'none'"]);
  expect(String(page.headers['content-security-policy'])).not.toMatch(/unsafe-eval|unsafe-inline|https?:/);

  const tags = [...page.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? '');
  const external = tags.filter((t) => t.includes(' src='));
  expect(external).toHaveLength(1);
  const src = /src="([^"]+)"/.exec(external[0] ?? '')?.[1] as string;
  const integrity = /integrity="([^"]+)"/.exec(external[0] ?? '')?.[1] as string;
  expect(src).toMatch(/^\/assets\/zk-[0-9a-f]{16}\.js$/);
  for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);

  const script = await h.http.get(src).buffer(true);
  expect(script.status).toBe(200);
  expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(script.headers['x-content-type-options']).toBe('nosniff');
  const body = Buffer.isBuffer(script.body) ? script.body : Buffer.from(script.text);
  expect(integrity).toBe(`sha384-${createHash('sha384').update(body).digest('base64')}`);
  expect(body.toString()).not.toMatch(/\beval\(|new Function|import\(/);
});

it("the page's read: a wrong key proof changes nothing, the right one gets the envelope once; no key or secret key in logs or metrics", async () => {
  const { link } = await zkShare({ baseUrl: h.url, authorization: auth }, { text: 'read by the page' });
  const parts = zkParseLink(link)!;
  const path = new URL(link).pathname;
  const page = await h.http.get(path);
  const csrf = parseForms(page.text).find((f) => 'csrf' in f.hidden)?.hidden['csrf'] as string;
  const cookie = (page.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const keys = await zkKeys(parts.key);
  const open = (fields: Record<string, string>) => h.http.post(`${path}/open`).set('Cookie', cookie).type('form').send(fields);

  expect((await open({ key_proof: zkEncode(keys.keyProof) })).status).toBe(400); // no token
  const wrong = await open({ csrf, key_proof: zkEncode(new Uint8Array(32)) });
  expect(wrong.status).toBe(403);
  expect(wrong.body.code).toBe('wrong_key');
  const read = await open({ csrf, key_proof: zkEncode(keys.keyProof) });
  expect(read.status).toBe(200);
  expect(read.headers['content-type']).toMatch(/^application\/json/);
  expect(read.body).toEqual({ secret_key: parts.secretKey, envelope: expect.any(String) });
  expect((await open({ csrf, key_proof: zkEncode(keys.keyProof) })).status).toBe(404);

  const metrics = await fetch(`${h.managementUrl}/metrics`).then((r) => r.text());
  for (const text of [h.logs.join('\n'), metrics]) {
    for (const needle of [parts.secretKey, zkEncode(parts.key), zkEncode(keys.keyProof)]) expect(text).not.toContain(needle);
  }
});
