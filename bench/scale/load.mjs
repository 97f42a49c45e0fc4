// The requests the scale and soak benchmarks send: autocannon runs summarised, an API token's
// Basic header, shares and reads, client-credentials tokens, admin API calls, and a sign-in as a
// browser makes it (authorization request, login form, consent, redirect to the client).
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

/** One autocannon run; resolves to its requests/s (2xx), p50, p99 and failures. */
export function cannon(opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: 32, ...opts }, (err, r) => {
      if (err) return reject(err);
      resolve({ rps: Math.round(r['2xx'] / r.duration), p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts });
    });
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

export const form = (fields) => new URLSearchParams(fields).toString();
const FORM = 'application/x-www-form-urlencoded';

/** Shares of a 64-character secret for `seconds` on `connections`; every key created goes to `keys`. */
export function shares(base, auth, { seconds, connections = 32, keys = [] }) {
  const body = form({ secret: 'x'.repeat(64), ttl: '3600' });
  return cannon({
    url: base,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/share',
        headers: { authorization: auth, 'content-type': FORM },
        body,
        onResponse: (status, b) => status === 200 && keys.push(JSON.parse(b).secret_key),
      },
    ],
  });
}

/**
 * Reads of the keys in `keys`, each once: all of them (`seconds` unset), or for `seconds`, taking
 * keys as others add them (a read that finds the pool empty reads a key already read: a 404).
 */
export function reads(base, keys, { seconds, connections = 32 }) {
  let next = 0;
  const take = () => (seconds === undefined ? keys[next++] : (keys.shift() ?? 'n0keys0left0000000000000000000'));
  return cannon({
    url: base,
    connections,
    ...(seconds === undefined ? { amount: keys.length } : { duration: seconds }),
    requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, path: `/api/v1/secret/${take()}` }) }],
  });
}

/** GETs of `paths` (cycled) with `headers` for `seconds`, after a 1 s warm-up. */
export async function gets(origin, paths, { seconds, connections = 8, headers = {} }) {
  let i = 0;
  const opts = { url: origin, connections, requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }] };
  await cannon({ ...opts, duration: 1 });
  return cannon({ ...opts, duration: seconds });
}

/**
 * One client paging through a list, page after page: `pathOf(first)` for first = `from`, `from` +
 * `size`, ...; the latency of each page but the first (a jump, answered by offset; the others go
 * on from where the page before ended).
 */
export async function walk(origin, pathOf, { from, size, pages, headers = {} }) {
  const latencies = [];
  const started = performance.now();
  for (let i = 0; i < pages; i++) {
    const t = performance.now();
    const res = await fetch(`${origin}${pathOf(from + i * size)}`, { headers });
    if (!res.ok) throw new Error(`${pathOf(from + i * size)}: ${res.status}`);
    await res.arrayBuffer();
    if (i > 0) latencies.push(performance.now() - t);
  }
  return summary(latencies, (performance.now() - started) / 1000);
}

/** Client-credentials tokens of one client for `seconds`, after a 2 s warm-up. */
export async function tokens(issuer, client, { seconds, connections = 32 }) {
  const opts = {
    url: `${issuer}/protocol/openid-connect/token`,
    method: 'POST',
    connections,
    headers: { 'content-type': FORM },
    body: form({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, scope: 'bench:read' }),
  };
  await cannon({ ...opts, duration: 2 });
  return cannon({ ...opts, duration: seconds });
}

/** An access token for the admin API (client credentials of `hush-admin`). */
export async function adminToken(issuer, secret) {
  const res = await fetch(`${issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': FORM },
    body: form({ grant_type: 'client_credentials', client_id: 'hush-admin', client_secret: secret }),
  });
  const body = await res.json();
  if (!body.access_token) throw new Error(`no admin token: ${JSON.stringify(body)}`);
  return body.access_token;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** Latencies (ms) summarised as the autocannon runs are. */
export function summary(latencies, seconds) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { rps: Math.round(sorted.length / seconds), p50: +percentile(sorted, 0.5).toFixed(1), p99: +percentile(sorted, 0.99).toFixed(1), total: sorted.length };
}

/**
 * One sign-in through the browser flow as a new browser (no cookies): the authorization request
 * with PKCE, the login page, the form with username and password, the consent page and its form,
 * up to the redirect carrying the code. Resolves to a function signing `username` in.
 */
export async function browserSignIn(root, issuer, client, password) {
  const { parseForms } = await import(pathToFileURL(join(root, 'packages', 'testing', 'dist', 'html.js')).href);
  const origin = new URL(issuer).origin;
  return async function signIn(username) {
    const cookies = new Map();
    const send = async (url, body) => {
      const res = await fetch(new URL(url, origin), {
        method: body ? 'POST' : 'GET',
        redirect: 'manual',
        headers: { ...(body ? { 'content-type': FORM } : {}), ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}) },
        body: body ? form(body) : undefined,
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      return res;
    };
    /** Follows redirects within the server; returns the page, or the redirect that leaves it. */
    const navigate = async (url, body) => {
      let res = await send(url, body);
      let current = new URL(url, origin).toString();
      for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400; hops++) {
        const location = new URL(res.headers.get('location'), current).toString();
        await res.arrayBuffer();
        if (!location.startsWith(origin)) return { leftTo: location };
        current = location;
        res = await send(location);
      }
      return { html: await res.text(), status: res.status };
    };
    const submit = (html, fields) => {
      const f = parseForms(html)[0];
      if (!f) throw new Error('no form on the page');
      return navigate(f.action, { ...f.hidden, ...fields });
    };
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const auth = `${issuer}/protocol/openid-connect/auth?${form({ client_id: client.client_id, redirect_uri: client.redirect_uri, response_type: 'code', scope: 'openid', state: randomBytes(8).toString('hex'), code_challenge: challenge, code_challenge_method: 'S256' })}`;
    const login = await navigate(auth);
    const consent = await submit(login.html, { username, password });
    const back = consent.leftTo ? consent : await submit(consent.html, {});
    if (!back.leftTo || !new URL(back.leftTo).searchParams.get('code')) throw new Error(`no code for ${username}`);
  };
}

/**
 * Sign-ins through the browser flow (browserSignIn), `concurrency` at a time for `seconds`, after
 * one each to warm up; `users` are signed in in turn. Resolves to sign-ins/s and the latency of a
 * whole sign-in.
 */
export async function logins(root, issuer, client, users, { seconds, concurrency = 8, password }) {
  const one = await browserSignIn(root, issuer, client, password);
  let n = 0;
  let failures = 0;
  const latencies = [];
  await Promise.all(Array.from({ length: concurrency }, () => one(users[n++ % users.length])));
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        try {
          await one(users[n++ % users.length]);
          latencies.push(performance.now() - t);
        } catch {
          failures++;
        }
      }
    }),
  );
  return { ...summary(latencies, seconds), failures };
}
