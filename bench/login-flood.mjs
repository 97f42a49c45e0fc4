#!/usr/bin/env node
// bench/login-flood: does a flood of wrong sign-ins slow token requests down? A client-credentials
// token request's latency while BENCH_LOGINS connections post wrong passwords to identity's login
// form without pause, against its latency when nothing else runs, measured in the same run on the
// same server (real PostgreSQL and Redis, bcrypt at the production cost, 12). Run from the root:
// `pnpm bench:login-flood [--scenarios hashed,one,many]` (default all three, each on a fresh server):
//   hashed: each connection its own address and a bcrypt queue as long as the flood
//           (PASSWORD_QUEUE=BENCH_LOGINS): every sign-in is checked by bcrypt (the attack that
//           once held identity for 30 s: 40 wrong sign-ins at once, within every limit);
//   one:    defaults, every sign-in from one address: the per-address cap
//           (LOGIN_CONCURRENCY_PER_IP) answers most of them 429 at once;
//   many:   defaults, each connection its own address (X-Forwarded-For from a trusted proxy): the
//           bcrypt pool's bound (PASSWORD_QUEUE) answers those beyond it 503 at once.
// The failure limits are lifted (LOGIN_MAX_FAILURES*) so that they refuse nothing. A refused
// sign-in is answered at once and the flood's connections send the next without pause, so `one`
// and `many` measure how cheaply the service refuses. The flood runs in a child process, so its
// client's work does not delay the token client's (both still share the machine with the server).
//   BENCH_SECONDS (default 15), BENCH_LOGINS (default 40), BENCH_PROBE_CONNECTIONS (default 2),
//   BENCH_NODE_FLAGS (default: identity's start flags). Target: p99 under the flood < 2x quiet.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import os from 'node:os';
import autocannon from 'autocannon';
import { serverFlags, startIdentity, withAdmin } from './token-servers.mjs';

const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const logins = Number(process.env.BENCH_LOGINS ?? 40);
const probeConnections = Number(process.env.BENCH_PROBE_CONNECTIONS ?? 2);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

if (process.argv[2] === '--flood') floodChild();
else await main();

async function main() {
  const wanted = process.argv.includes('--scenarios') ? process.argv[process.argv.indexOf('--scenarios') + 1].split(',') : ['hashed', 'one', 'many'];
  const scenarios = {
    hashed: { label: `${logins} addresses, every sign-in hashed`, many: true, env: { PASSWORD_QUEUE: String(logins) } },
    one: { label: 'one address, defaults', many: false, env: {} },
    many: { label: `${logins} addresses, defaults`, many: true, env: {} },
  };
  if (!wanted.every((name) => name in scenarios)) throw new Error('--scenarios takes hashed, one, many');
  const execArgv = serverFlags(root, process.env.BENCH_NODE_FLAGS);
  const databases = [];
  const rows = [];
  try {
    for (const name of wanted) rows.push({ ...scenarios[name], ...(await measure(scenarios[name], { databases, execArgv })) });
  } finally {
    for (const db of databases) await withAdmin(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
  }
  console.log(
    `\nclient-credentials token latency while ${logins} connections post wrong sign-ins (bcrypt cost 12), ${probeConnections} token connections, ${seconds} s, ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(
    '| sign-ins | token p50 quiet ms | token p99 quiet ms | token p50 flood ms | token p99 flood ms | p99 flood / quiet | tokens/s quiet → flood | sign-in answers | sign-in p99 ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { label, quiet, busy, flood } of rows) {
    const answers = Object.entries(flood.statuses)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    console.log(
      `| ${label} | ${quiet.p50} | ${quiet.p99} | ${busy.p50} | ${busy.p99} | ${(busy.p99 / quiet.p99).toFixed(2)} | ${quiet.rps.toFixed(0)} → ${busy.rps.toFixed(0)} | ${answers} | ${flood.p99} |`,
    );
  }
}

/** One scenario on a fresh server: token latency quiet, then while the flood runs. */
async function measure({ many, env }, { databases, execArgv }) {
  // The sign-in limits out of the way (each request its own made-up username); TRUST_PROXY for X-Forwarded-For.
  const identity = await startIdentity(root, 'RS256', {
    databases,
    execArgv,
    env: { TRUST_PROXY: 'loopback', LOGIN_MAX_FAILURES: '1000000', LOGIN_MAX_FAILURES_PER_IP: '1000000', ...env },
  });
  try {
    const login = await openLoginForm(identity);
    await probe(identity, 2); // warm-up (JIT, pools)
    const quiet = await probe(identity, seconds);
    const child = fork(here, ['--flood'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.send({ ...login, connections: logins, seconds: seconds + 2, many });
    await once(child, 'message'); // started
    await new Promise((r) => setTimeout(r, 2000)); // the flood at full strength before the probe
    const busy = await probe(identity, seconds);
    const [flood] = await once(child, 'message');
    return { quiet, busy, flood };
  } finally {
    await identity.stop();
  }
}

/** Token requests for `duration` seconds: their latency and rate (only 200s count). */
async function probe(identity, duration) {
  const r = await autocannon({ url: identity.url, method: 'POST', connections: probeConnections, duration, headers: FORM, body: identity.body });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`token requests failed: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { p50: r.latency.p50, p99: r.latency.p99, rps: r['2xx'] / r.duration };
}

/**
 * One sign-in of a code-flow client, opened as a browser would: the login form's URL, its hidden
 * fields and the interaction's cookies. Every connection of the flood posts this form again (a
 * wrong password answers the form anew), each time with another made-up username.
 */
async function openLoginForm(identity) {
  const redirect = 'http://127.0.0.1:9/callback';
  const client = await identity.cli('clients', 'create', '--name', 'bench-login', '--grants', 'authorization_code', '--redirect-uri', redirect, '--scopes', 'bench:read');
  const auth = new URL(`${identity.issuer}/protocol/openid-connect/auth`);
  const params = {
    client_id: client.client_id,
    redirect_uri: redirect,
    response_type: 'code',
    scope: 'openid',
    state: 'bench',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) auth.searchParams.set(k, v);
  const started = await fetch(auth, { redirect: 'manual' });
  const cookie = started.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const pageUrl = new URL(started.headers.get('location'), auth);
  const page = await (await fetch(pageUrl, { headers: { cookie } })).text();
  const form = /<form[^>]*method="post"[^>]*action="([^"]+\/login)"/.exec(page);
  if (!form) throw new Error(`no login form in:\n${page.slice(0, 500)}`);
  const csrf = /<input type="hidden" name="csrf" value="([^"]*)"/.exec(page)?.[1];
  if (!csrf) throw new Error('no CSRF field in the login form');
  const hidden = { csrf };
  return { url: new URL(form[1].replaceAll('&amp;', '&'), pageUrl).toString(), cookie, origin: pageUrl.origin, hidden };
}

/** The child: wrong sign-ins on every connection until told duration ends; answers their statuses and latency. */
function floodChild() {
  process.once('message', async ({ url, cookie, origin, hidden, connections, seconds: duration, many }) => {
    let next = 0;
    const headers = { ...FORM, cookie, origin };
    const instance = autocannon({
      url,
      connections,
      duration,
      // A sign-in waits for its answer however long bcrypt takes (autocannon's default gives up after 10 s).
      timeout: 120,
      requests: [
        {
          method: 'POST',
          setupRequest(req, context) {
            context.address ??= `10.${(next >> 8) & 255}.${next & 255}.${1 + (next++ % 250)}`;
            const body = new URLSearchParams({ ...hidden, username: `bench-${next++}`, password: 'not the password' }).toString();
            return { ...req, headers: many ? { ...headers, 'x-forwarded-for': context.address } : headers, body };
          },
        },
      ],
    });
    const statuses = {};
    instance.on('response', (_client, status) => (statuses[status] = (statuses[status] ?? 0) + 1));
    process.send('started');
    const r = await instance;
    process.send({ statuses, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors }, () => process.exit(0));
  });
}
