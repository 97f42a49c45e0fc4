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
export async function readRequestBody(ctx: KoaContextWithOIDC): Promise<Buffer | undefined> {
  const req = ctx.req as BodyRequest;
  if (!req.readable) return Buffer.isBuffer(req.body) ? req.body : undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    // Not destroyed when the limit stops the loop: the rest is discarded once the answer is sent,
    // and the kept-alive connection goes on (@hush/common's releaseUnreadBody).
    for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > BODY_LIMIT) return undefined;
      chunks.push(chunk);
    }
  } catch {
    // The client went away mid-body: nothing to answer to.
    return undefined;
  }
  const body = Buffer.concat(chunks, received);
  req.body = body;
  return body;
}
