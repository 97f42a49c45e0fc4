import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { zkParams } from '@hush/zk';
import type { Principal } from '../auth/principal.js';
import { FileRequiredError, FileTooLargeError, TooManyUploadsError, UnknownFileError, UploadTypeError } from '../errors.js';
import type { ZkDeps } from './deps.js';
import { downloadHashOf } from './zk-read.js';

/**
 * Zero-knowledge files (docs/zero-knowledge.md): the client's encrypted records stream through
 * in pieces of one record (64 KiB and its 16-byte tag), a few pieces at a time, so the memory an
 * upload or a download holds does not depend on the file's size. What this service stores and
 * hands back is only ciphertext; the file's name and type are in the secret's envelope.
 */

/** Bytes of one stored piece: one record with its tag. */
export const PIECE_BYTES = zkParams().recordBytes + zkParams().tagBytes;
/** Pieces written or read by one statement (~256 KiB): the most an upload or download holds. */
const PIECES_PER_STATEMENT = 4;

/** The largest upload for files of at most `fileMaxBytes` bytes: each record gains a 16-byte tag. */
export const uploadLimit = (fileMaxBytes: number): number => fileMaxBytes + zkParams().tagBytes * Math.max(1, Math.ceil(fileMaxBytes / zkParams().recordBytes));

export interface Upload {
  id: string;
  bytes: number;
  expiresIn: number;
}

/**
 * Stores an upload of `principal` from `body`, as it comes: refused unless it says it is
 * `application/octet-stream` (a form or JSON sent here by mistake is not a file); refused before a byte is read when
 * its declared length is over the limit, cut short (and deleted) when it grows over it, deleted
 * when the client goes away. The upload waits uploadSeconds for the share that attaches it.
 */
export async function uploadFile(deps: Pick<ZkDeps, 'files' | 'zk'>, principal: Principal, body: IncomingMessage): Promise<Upload> {
  if (!/^application\/octet-stream\s*(;|$)/i.test(body.headers['content-type'] ?? '')) throw new UploadTypeError();
  const limit = uploadLimit(deps.zk.fileMaxBytes);
  const declared = body.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw new FileTooLargeError(limit);
  const id = randomUUID();
  if (!(await deps.files.create(id, principal.custid, { expiresSeconds: deps.zk.uploadSeconds, maxPending: deps.zk.maxPendingUploads }))) {
    throw new TooManyUploadsError();
  }
  try {
    let held: Buffer[] = [];
    let heldBytes = 0;
    let total = 0;
    let next = 0;
    const write = async (all: boolean) => {
      const joined = Buffer.concat(held, heldBytes);
      const pieces: Buffer[] = [];
      let at = 0;
      while (joined.length - at >= PIECE_BYTES || (all && at < joined.length)) {
        pieces.push(joined.subarray(at, Math.min(at + PIECE_BYTES, joined.length)));
        at += PIECE_BYTES;
      }
      held = at < joined.length ? [joined.subarray(at)] : [];
      heldBytes = held[0]?.length ?? 0;
      if (pieces.length === 0) return;
      await deps.files.append(id, next, pieces);
      next += pieces.length;
    };
    await consume(body, async (chunk) => {
      total += chunk.length;
      if (total > limit) throw new FileTooLargeError(limit);
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= PIECE_BYTES * PIECES_PER_STATEMENT) await write(false);
    });
    if (total === 0) throw new FileRequiredError();
    await write(true);
    await deps.files.complete(id, total);
    return { id, bytes: total, expiresIn: deps.zk.uploadSeconds };
  } catch (err) {
    await deps.files.remove(id).catch(() => undefined);
    throw err;
  }
}

/**
 * Feeds a request's body to `handle` chunk by chunk, reading the next only once it is handled (the
 * socket's own flow control holds the sender back meanwhile). When `handle` throws, reading stops
 * there: what is left of the body is discarded once the answer is sent (requestLog).
 */
function consume(req: IncomingMessage, handle: (chunk: Buffer) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const stop = (err: unknown) => {
      if (failed) return;
      failed = true;
      cleanup();
      req.pause();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onData = (chunk: Buffer) => {
      req.pause();
      handle(chunk).then(() => {
        if (!failed) req.resume();
      }, stop);
    };
    const onEnd = () => {
      cleanup();
      resolve();
    };
    const onAborted = () => stop(Object.assign(new Error('request aborted'), { status: 400, type: 'request.aborted' }));
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', stop);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', stop);
  });
}

/** Resolves once the response takes more (drain) or is gone (close), leaving no listener behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Sends the file a download token opens, a few pieces at a time, waiting for the client to take
 * each batch. The file is deleted once its last pieces are read from the database, before they
 * are sent: by the time the client holds the whole file, the token opens nothing. A download cut
 * short before that may be tried again with the same token until it expires (the token is the
 * reader's alone: the one-time read handed it out).
 */
export async function downloadFile(deps: Pick<ZkDeps, 'files'>, token: string, res: ServerResponse): Promise<void> {
  const file = /^[A-Za-z0-9_-]{43}$/.test(token) ? await deps.files.forDownload(downloadHashOf(token)) : undefined;
  if (!file) throw new UnknownFileError();
  const total = Math.ceil(file.bytes / PIECE_BYTES);
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(file.bytes), 'Content-Disposition': 'attachment' });
  for (let next = 0; next < total;) {
    const pieces = await deps.files.pieces(file.id, next, PIECES_PER_STATEMENT);
    if (pieces.length === 0) throw new Error('a file lost pieces while it was downloaded');
    next += pieces.length;
    if (next >= total) await deps.files.remove(file.id);
    for (const piece of pieces) {
      if (res.destroyed) return;
      if (!res.write(piece)) await drained(res);
    }
  }
  if (!res.destroyed) res.end();
}
