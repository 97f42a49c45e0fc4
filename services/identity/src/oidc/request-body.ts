import type { KoaContextWithOIDC } from 'oidc-provider';

/** oidc-provider's own limit on a request body. */
export const BODY_LIMIT = 56 * 1024;

type BodyRequest = KoaContextWithOIDC['req'] & { body?: unknown };

/**
 * The raw body of a protocol request, read once for every middleware that needs it before
 * oidc-provider: the first call reads the stream, later ones get the same bytes. What is left in
 * `req.body` is what oidc-provider parses when it finds the stream consumed (its selective body
 * reader), so the form it reads is the one the middlewares read (or rewrote). Undefined when the
 * body is larger than oidc-provider accepts or the stream failed.
 */
export function readRequestBody(ctx: KoaContextWithOIDC): Promise<Buffer | undefined> {
  const req = ctx.req as BodyRequest;
  if (!req.readable) return Promise.resolve(Buffer.isBuffer(req.body) ? req.body : undefined);
  // Listeners rather than the stream's async iterator: one promise per body instead of one per
  // chunk and the iterator's own, on every token request.
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (body: Buffer | undefined): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFailure);
      req.off('close', onFailure);
      resolve(body);
    };
    function onData(chunk: Buffer): void {
      received += chunk.length;
      if (received <= BODY_LIMIT) return void chunks.push(chunk);
      // Not destroyed: the rest is discarded once the answer is sent, and the kept-alive
      // connection goes on (@hush/common's releaseUnreadBody).
      req.pause();
      settle(undefined);
    }
    function onEnd(): void {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
      req.body = body;
      settle(body);
    }
    // The client went away mid-body: nothing to answer to.
    function onFailure(): void {
      settle(undefined);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onFailure);
    req.on('close', onFailure);
  });
}
