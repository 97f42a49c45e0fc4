import { createHash } from 'node:crypto';
import express from 'express';
import { browserScript } from '@hush/zk';

/** The pages' zero-knowledge script as a page names it: its path (its hash in the name) and its Subresource Integrity. */
export interface ZkScript {
  src: string;
  integrity: string;
}

/**
 * The script built once, when the app is (packages/zk: the format's and the pages' functions),
 * served from this origin under a name that changes with its content, so it may be cached for
 * good; pages load it with `integrity` and their nonce (layout's `external`).
 */
export function zkScript(): ZkScript & { text: string } {
  const text = browserScript();
  const name = createHash('sha256').update(text).digest('hex').slice(0, 16);
  return { text, src: `/assets/zk-${name}.js`, integrity: `sha384-${createHash('sha384').update(text).digest('base64')}` };
}

/** GET of the script: JavaScript, never sniffed as anything else, immutable, for this origin's pages only. */
export function zkScriptRoutes(script: ZkScript & { text: string }): express.Router {
  const router = express.Router();
  router.get(script.src, (_req, res) => {
    res.set({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Cross-Origin-Resource-Policy': 'same-origin',
    });
    res.send(script.text);
  });
  return router;
}
