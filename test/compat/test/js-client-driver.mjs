// Runs the npm package onetimesecret-api in a plain Node process: it needs node-fetch 3, an ES
// module that Jest's CommonJS loader cannot require. Reads one JSON request per line on stdin,
// { id, url, user, key, method, args }, calls the method on a client made with those options, and
// writes { id, ok, value } or { id, ok: false, error: { name, message } } per line on stdout.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const { OneTimeSecretApi } = require('onetimesecret-api/index.js');

// The deprecated methods warn on the console; keep stdout for answers.
// eslint-disable-next-line no-console -- silencing the client, not logging
console.warn = () => {};

for await (const line of createInterface({ input: process.stdin })) {
  const { id, url, user, key, method, args } = JSON.parse(line);
  try {
    const client = new OneTimeSecretApi(user, key, { url });
    const value = await client[method](...args);
    process.stdout.write(`${JSON.stringify({ id, ok: true, value: value ?? null })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ id, ok: false, error: { name: err.constructor?.name ?? 'Error', message: String(err.message) } })}\n`);
  }
}
