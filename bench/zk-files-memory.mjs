#!/usr/bin/env node
// Memory of the secrets service while zero-knowledge files stream through it (docs/zero-knowledge.md §4):
//
//   pnpm exec tsc -b && node_modules/.bin/node bench/zk-files-memory.mjs [--concurrency 8] [--files 3] [--mib 10]
//
// It starts the built service (services/secrets/dist, with its start script's Node flags) on a
// throw-away database and samples its resident memory (VmRSS from /proc, every 20 ms) while
// `--concurrency` clients each upload `--files` files of `--mib` MiB at once (POST /api/v1/zk/files,
// then POST /api/v1/zk/share attaching it), and then read and download them all, as many at
// once (POST /api/v1/zk/secret/:key, GET of its file). Bodies are random bytes of the size of
// real records: the service neither can nor does look inside them. It prints the RSS at rest, the
// peak of each phase and the growth over rest, next to what the files in flight weigh: a service
// that held each file whole would grow by at least that much.
// Environment: TEST_PG_ADMIN_URL (postgres://postgres@127.0.0.1:5432/postgres), TEST_REDIS_URL.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { withSecretsService } from './secrets-service.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values: args } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '8' },
    files: { type: 'string', default: '3' },
    mib: { type: 'string', default: '10' },
    root: { type: 'string', default: join(here, '..') },
  },
});
const root = resolve(args.root);
const zk = await import(pathToFileURL(join(root, 'packages', 'zk', 'dist', 'index.js')).href);
const CONCURRENCY = Number(args.concurrency);
const FILES = Number(args.files);
const CONTENT = Number(args.mib) * 1024 * 1024;
// What the client uploads for that much content: each 64 KiB record gains its 16-byte tag.
const UPLOAD = CONTENT + 16 * Math.ceil(CONTENT / 65536);

const rssMiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Samples the service's RSS every 20 ms while `work` runs; its peak. */
async function peakDuring(pid, work) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, rssMiB(pid));
}

async function call(base, method, path, { auth, json, bytes } = {}) {
  const headers = {
    ...(auth ? { authorization: auth } : {}),
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(bytes ? { 'content-type': 'application/octet-stream' } : {}),
  };
  const res = await fetch(`${base}${path}`, { method, headers, body: json ? JSON.stringify(json) : bytes });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

const report = await withSecretsService(root, { FILE_MAX_BYTES: String(CONTENT) }, async ({ base, auth, pid }) => {
  const request = (method, path, options) => call(base, method, path, options);

  const keys = await zk.zkKeys(zk.zkRandom(32));
  const envelope = zk.zkEncode(await zk.zkSealHeader(keys, { file: { name: 'f.bin', type: 'application/octet-stream', size: CONTENT } }, zk.zkRandom(12)));
  const body = randomBytes(UPLOAD);
  // Warm-up: one small file through both directions.
  {
    const up = await (await request('POST', '/api/v1/zk/files', { auth, bytes: randomBytes(1000) })).json();
    const shared = await (await request('POST', '/api/v1/zk/share', { auth, json: { envelope, key_verifier: keys.keyVerifier, file: up.file } })).json();
    const read = await (await request('POST', `/api/v1/zk/secret/${shared.secret_key}`, { json: { key_proof: zk.zkEncode(keys.keyProof) } })).json();
    await (await request('GET', read.file.url)).arrayBuffer();
  }
  await new Promise((r) => setTimeout(r, 2000));
  const rest = rssMiB(pid);

  const secretKeys = [];
  const t0 = performance.now();
  const uploadPeak = await peakDuring(pid, () =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = 0; i < FILES; i++) {
          const up = await (await request('POST', '/api/v1/zk/files', { auth, bytes: body })).json();
          const shared = await (await request('POST', '/api/v1/zk/share', { auth, json: { envelope, key_verifier: keys.keyVerifier, file: up.file } })).json();
          secretKeys.push(shared.secret_key);
        }
      }),
    ),
  );
  const uploadSeconds = (performance.now() - t0) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const between = rssMiB(pid);

  let downloaded = 0;
  const t1 = performance.now();
  const downloadPeak = await peakDuring(pid, () =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let key = secretKeys.pop(); key !== undefined; key = secretKeys.pop()) {
          const read = await (await request('POST', `/api/v1/zk/secret/${key}`, { json: { key_proof: zk.zkEncode(keys.keyProof) } })).json();
          const res = await request('GET', read.file.url);
          for await (const chunk of res.body) downloaded += chunk.length;
        }
      }),
    ),
  );
  const downloadSeconds = (performance.now() - t1) / 1000;
  if (downloaded !== CONCURRENCY * FILES * UPLOAD) throw new Error(`downloaded ${downloaded} bytes, expected ${CONCURRENCY * FILES * UPLOAD}`);
  const inFlight = (CONCURRENCY * UPLOAD) / 1048576;
  return [
    `zero-knowledge files through the secrets service: ${CONCURRENCY} clients at once, ${FILES} files each of ${args.mib} MiB (${UPLOAD} bytes uploaded), Node ${process.version}`,
    '',
    '| phase | service RSS MiB | over rest MiB | files in flight MiB | MiB/s through |',
    '|---|---|---|---|---|',
    `| at rest (after a warm-up) | ${rest.toFixed(1)} | | | |`,
    `| uploads (peak) | ${uploadPeak.toFixed(1)} | ${(uploadPeak - rest).toFixed(1)} | ${inFlight.toFixed(0)} | ${((CONCURRENCY * FILES * UPLOAD) / 1048576 / uploadSeconds).toFixed(1)} |`,
    `| between (2 s later) | ${between.toFixed(1)} | ${(between - rest).toFixed(1)} | | |`,
    `| reads and downloads (peak) | ${downloadPeak.toFixed(1)} | ${(downloadPeak - rest).toFixed(1)} | ${inFlight.toFixed(0)} | ${(downloaded / 1048576 / downloadSeconds).toFixed(1)} |`,
  ].join('\n');
});
console.log(report);
