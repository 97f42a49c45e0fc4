import type { IncomingMessage } from 'node:http';

/**
 * The most of an unread request body a kept-alive connection reads and discards to serve its next
 * request; a client still sending beyond it loses the connection instead.
 */
export const UNREAD_BODY_DRAIN_LIMIT = 8 * 1024 * 1024;

/**
 * Called once the response has been sent: a request whose body was refused unread (too large,
 * malformed, not needed) would otherwise leave its remaining bytes on a keep-alive connection,
 * where Node's parser waits for them to be consumed before it reads the next request, so that
 * request is never answered. Node discards such a body itself only when nothing started reading
 * it; a parser that stopped half-way (at its size limit) leaves the stream paused. This reads the
 * rest and drops it, up to `UNREAD_BODY_DRAIN_LIMIT`, past which the connection is closed.
 */
export function releaseUnreadBody(req: IncomingMessage): void {
  if (req.complete) return;
  // A reader that destroyed the request left its bytes on the connection for good: close it.
  if (req.destroyed) return void req.socket.end();
  let drained = 0;
  req.removeAllListeners('data');
  req.on('data', discard);
  req.resume();

  function discard(chunk: Buffer): void {
    drained += chunk.length;
    if (drained > UNREAD_BODY_DRAIN_LIMIT) req.socket.destroy();
  }
}
