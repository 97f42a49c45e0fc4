import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RequestHandler } from 'express';

/**
 * @simplewebauthn/browser's browser bundle, served from our origin (the pages' CSP allows scripts
 * only under their nonce, and loads nothing from third parties). Read once, on first request;
 * cached by browsers for a day (the file changes only with the package).
 */
let bundle: Buffer | undefined;
const load = () => {
  if (!bundle) {
    const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
    // The package's CommonJS entry is <package>/script/index.js; its bundle is <package>/dist/bundle.
    bundle = readFileSync(join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js'));
  }
  return bundle;
};

export function webauthnScript(): RequestHandler {
  return (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' });
    res.send(load());
  };
}
