import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import bodyParser from 'body-parser';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { jsonProblem, MalformedTextError, parsedTextProblem, percentEncodedProblem, verifyBodyText } from '@hush/common';

/**
 * Bodies as Onetime Secret's clients send them: JSON, urlencoded (curl -d) and multipart
 * (curl -F, no files). 10,000 characters of up to 4 UTF-8 bytes, percent-encoded, stay below
 * the limit; beyond it is a 413 before anything is parsed. Every reader below refuses text that
 * is not UTF-8, or holds NUL or a lone surrogate (400, @hush/common's input layer): JSON and
 * urlencoded bodies before they are parsed, multipart fields once busboy has read them.
 */
export const BODY_LIMIT = '256kb';
const BYTES = 256 * 1024;
const PARAMETER_LIMIT = 50;

const json = bodyParser.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'], verify: verifyBodyText('json') });
const form = bodyParser.urlencoded({ extended: false, limit: BODY_LIMIT, parameterLimit: PARAMETER_LIMIT, verify: verifyBodyText('form') });
const readMultipart = multer({ limits: { fieldSize: BYTES, fields: 50, files: 0, parts: 50 } }).none();
const multipart: RequestHandler = (req, res, next) => readMultipart(req, res, (err?: unknown) => next(err ?? parsedTextProblem(req.body)));

/**
 * The API's body parser, on both dispatch paths: the lean reader below for the plain urlencoded
 * and JSON bodies API clients send (it skips body-parser's per-request stream, charset and `qs`
 * machinery on the hot routes), body-parser and multer for everything else.
 */
export const parseBody: RequestHandler = (req, res, next) => {
  const kind = leanKind(req);
  if (kind === undefined) return viaBodyParser(req, res, next);
  readLeanBody(req, kind).then(() => next(), next);
};

/** body-parser (JSON, urlencoded) or multer (multipart), chosen by Content-Type (each still checks the type itself). */
export const viaBodyParser: RequestHandler = (req, res, next) => {
  const type = req.headers['content-type'];
  if (!type) return next();
  if (/^multipart\//i.test(type)) return multipart(req, res, next);
  if (/json/i.test(type)) return json(req, res, next);
  return form(req, res, next);
};

/*
 * The lean reader. It reads the two encodings API clients send in practice, urlencoded and JSON,
 * in UTF-8 with a Content-Length within the limit and no Content-Encoding, and gives exactly what
 * body-parser gives for them (body.test.ts compares the two). Every other request (multipart,
 * chunked, compressed, another charset, a body over the limit) goes to body-parser itself, and so
 * does a urlencoded body with brackets, more than 50 fields or a field name the Object prototype
 * has: the cases where body-parser's `qs` does more than split and decode. Those are read once and
 * handed to body-parser as they came.
 */

type Kind = 'form' | 'json';
type BodyRequest = IncomingMessage & { body?: unknown };

// `type/subtype` with nothing but an optional UTF-8 charset parameter (what clients send).
const LEAN_TYPE = /^(application\/x-www-form-urlencoded|application\/json)(?:; ?charset=(?:utf-8|"utf-8"))?$/i;

/** The encoding the lean reader reads this request with, or undefined when body-parser must. */
export function leanKind(req: IncomingMessage): Kind | undefined {
  const { headers } = req;
  const type = headers['content-type'];
  if (type === undefined) return undefined;
  const match = LEAN_TYPE.exec(type);
  if (!match) return undefined;
  const length = headers['content-length'];
  if (length === undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return undefined;
  if (!/^\d{1,7}$/.test(length) || Number(length) > BYTES) return undefined;
  return match[1]!.length === 16 ? 'json' : 'form';
}

/** Reads and parses the body of a request `leanKind` accepted; errors are those body-parser raises. */
export function readLeanBody(req: BodyRequest, kind: Kind): Promise<void> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => {
      cleanup();
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (size !== Number(req.headers['content-length'])) return reject(readError('request size did not match content length', 'request.size.invalid'));
      const problem = kind === 'json' ? jsonProblem(raw) : percentEncodedProblem(raw);
      if (problem) return reject(new MalformedTextError('body', problem));
      let text = raw.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // iconv-lite, under body-parser, drops a byte order mark
      try {
        if (kind === 'json') {
          req.body = parseJson(text);
          return resolve();
        }
        const parsed = parseForm(text);
        if (parsed) {
          req.body = parsed;
          return resolve();
        }
      } catch (err) {
        return reject(asError(err));
      }
      // A form only `qs` reads right: body-parser gets it, byte for byte.
      replay(req, raw).then(resolve, reject);
    };
    const onAborted = () => {
      cleanup();
      reject(readError('request aborted', 'request.aborted'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(Object.assign(err, { status: 400 }));
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('error', onError);
  });
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** raw-body's errors, as `toDomainError` reads them (a 400 of the caller). */
function readError(message: string, type: string) {
  return Object.assign(new Error(message), { status: 400, statusCode: 400, type, expose: true });
}

/** body-parser's strict JSON: `{}` for an empty body; an object or array, else a parse failure. */
export function parseJson(text: string): unknown {
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.|$)/s.exec(text)![1];
  if (first !== '{' && first !== '[') throw parseFailure();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw parseFailure();
  }
}

function parseFailure() {
  return Object.assign(new SyntaxError('Unexpected token in JSON'), { status: 400, statusCode: 400, type: 'entity.parse.failed', expose: true });
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);
const decode = (s: string): string => {
  const spaced = s.indexOf('+') === -1 ? s : s.replace(/\+/g, ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
};

/**
 * A urlencoded body as body-parser (`extended: false`, through `qs` at depth 0) reads it, for the
 * forms it can read without `qs`'s key syntax: undefined means "let body-parser read it".
 * Empty parts are skipped, `+` is a space, a bad percent-escape is kept as sent, a name without
 * `=` has the value '', and a name given more than once collects its values in an array.
 */
export function parseForm(text: string): Record<string, string | string[]> | undefined {
  const body: Record<string, string | string[]> = {};
  if (text.length === 0) return body;
  if (/[[\]]|%5[bd]/i.test(text)) return undefined;
  let count = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (++count > PARAMETER_LIMIT) return undefined;
    if (end > start) {
      const eq = text.indexOf('=', start);
      const hasValue = eq !== -1 && eq < end;
      const key = decode(text.slice(start, hasValue ? eq : end));
      if (key === '' || key in Object.prototype) return undefined;
      const value = hasValue ? decode(text.slice(eq + 1, end)) : '';
      if (!hasOwn(body, key)) body[key] = value;
      else {
        const existing = body[key]!;
        body[key] = typeof existing === 'string' ? [existing, value] : [...existing, value];
      }
    }
    start = end + 1;
  }
  return body;
}

/** Hands a body already read to body-parser, which reads it from a stream of the same bytes. */
function replay(req: BodyRequest, raw: Buffer): Promise<void> {
  const stream = new Readable({ read: () => undefined }); // a Readable: on-finished takes a Duplex for a response
  // on-finished (in body-parser) tells a request still to be read by `complete` and its socket.
  const copy = Object.assign(stream, { headers: req.headers, method: req.method, url: req.url, complete: false, socket: { readable: true } });
  stream.on('end', () => (copy.complete = true));
  stream.push(raw);
  stream.push(null);
  return new Promise((resolve, reject) => {
    viaBodyParser(copy as never, {} as never, (err?: unknown) => {
      if (err) return reject(asError(err));
      req.body = (copy as BodyRequest).body;
      resolve();
    });
  });
}
