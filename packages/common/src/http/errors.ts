import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from '../logging/logger.js';
import { outageLog } from '../logging/outage.js';
import { requestIdOf, requestLogger } from './request-log.js';

/**
 * The one error model of Hush (docs/adr/0007-service-style-and-errors.md).
 *
 * Rules:
 * - A failure our own code can name is a `DomainError` subclass: one class per failure, with a
 *   stable `code`, an HTTP `status` and a message that is safe to show (never a secret, key,
 *   passphrase, token or e-mail address).
 * - Each surface maps errors in exactly one place: the secrets API to `{ message, code }`,
 *   identity's JSON routes to RFC 6749's `{ error, error_description }`, pages to an error page,
 *   the admin CLIs to `error: <message>` and an exit code (`cliExitCode`).
 * - Anything that is not a `DomainError` after `toDomainError` is a real fault: a generic 500
 *   whose detail goes to the log only.
 */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers (WWW-Authenticate, Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

type DomainErrorClass<A extends unknown[]> = new (...args: A) => DomainError;

/** Base class of a failure that always answers the same: `class Gone extends fixedError(404, 'gone', 'Gone') {}`. */
export function fixedError(status: number, code: string, message: string, headers: Record<string, string> = {}): DomainErrorClass<[]> {
  return class extends DomainError {
    constructor() {
      super(status, code, message, headers);
    }
  };
}

/** Base class of a failure whose message the thrower words: `new MalformedBodyError('...')`. */
export function wordedError(status: number, code: string): DomainErrorClass<[message: string]> {
  return class extends DomainError {
    constructor(message: string) {
      super(status, code, message);
    }
  };
}

// Failures every surface shares.
export class InvalidInputError extends wordedError(400, 'invalid_input') {}
export class MalformedBodyError extends wordedError(400, 'malformed_body') {}
export class MalformedPathError extends fixedError(400, 'malformed_path', 'The request path is not valid') {}
export class NotFoundError extends DomainError {
  constructor(what: string) {
    super(404, 'not_found', `${what} not found`);
  }
}
export class RouteNotFoundError extends fixedError(404, 'not_found', 'Not Found') {}
export class AlreadyExistsError extends DomainError {
  constructor(what: string) {
    super(409, 'already_exists', `${what} already exists`);
  }
}
export class PayloadTooLargeError extends DomainError {
  constructor(limit: string) {
    super(413, 'payload_too_large', `Request body exceeds ${limit}`);
  }
}
export class UnsupportedMediaTypeError extends wordedError(415, 'unsupported_media_type') {}

/** Seconds a caller is asked to wait when a dependency is out: long enough not to hammer it, short enough to notice its return. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** A dependency (the database, Redis) refused, dropped or did not answer in time: the request may succeed later. */
export class DependencyUnavailableError extends DomainError {
  constructor(
    /** What is out, as /readyz names it: `database` or `redis`. */
    readonly dependency: string,
    /** What the driver threw (logged once per outage, never shown). */
    readonly reason: unknown,
  ) {
    super(503, 'service_unavailable', 'The service is temporarily unavailable, please retry later', { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) });
  }
}

// Socket-level failures of a connection to a dependency (Node's error codes).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// pg's own messages for a connection that failed, timed out or died (knex puts the statement
// and " - " before the message of a query's error).
// (and the pool's: tarn's "operation timed out" when a connection attempt outlives the acquire timeout).
const PG_CONNECTION_FAILURE =
  /(^| - )(Connection terminated|Connection ended unexpectedly|timeout expired|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|operation timed out for an unknown reason)/;
// PostgreSQL SQLSTATEs of an unusable server: connection exceptions (08), statement_timeout and
// shutdowns (57014, 57P01-57P03), too many connections (53300).
const PG_UNAVAILABLE_STATE = /^(08...|57014|57P0[123]|53300)$/;
// ioredis: command timeout, offline with no queue, retries exhausted, connection closed.
const REDIS_FAILURE = /^(Command timed out|Stream isn't writeable|Reached the max retries per request|Connection is closed)/;

/**
 * Which dependency a driver's error says is out (`database`, `redis`), or undefined if the error
 * is something else. The one place such failures are recognised: callers get a 503, not a 500.
 */
export function unavailableDependency(err: unknown): string | undefined {
  const e = err as { name?: unknown; code?: unknown; message?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== 'object') return undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  // Refused before trying (circuit-breaker.ts): the error names its dependency.
  if (e.name === 'DependencyShedError') return String((e as { dependency?: unknown }).dependency);
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_FAILURE.test(message)) return 'redis';
  if (e.name === 'KnexTimeoutError' || PG_CONNECTION_FAILURE.test(message)) return 'database';
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || PG_UNAVAILABLE_STATE.test(e.code))) return 'database';
  // net.connect over several addresses (localhost: ::1 and 127.0.0.1) fails with an AggregateError.
  if (Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((part) => unavailableDependency(part) !== undefined)) return unavailableDependency(e.errors[0]);
  return undefined;
}

/**
 * Turns what a parser or the platform throws at bad input into the caller's 4xx: body-parser's
 * typed errors, multer's (matched by name: only secrets depends on multer), busboy's and the
 * URIError of a malformed percent-escape in a path; and a dependency's failure (see
 * `unavailableDependency`) into a 503 with Retry-After. Undefined means "a real fault".
 */
export function toDomainError(err: unknown, bodyLimit = 'the size limit'): DomainError | undefined {
  if (err instanceof DomainError) return err;
  if (err instanceof URIError) return new MalformedPathError();
  const e = err as { type?: string; status?: number; name?: string; code?: string; message?: string } | null;
  if (e?.name === 'MulterError') {
    return e.code === 'LIMIT_FIELD_VALUE' || e.code === 'LIMIT_FIELD_SIZE'
      ? new PayloadTooLargeError(bodyLimit)
      : new MalformedBodyError(`multipart form rejected: ${e.message ?? 'unreadable'} (files are not accepted)`);
  }
  switch (e?.type) {
    case 'entity.parse.failed':
      return new MalformedBodyError('the request body is not valid JSON');
    case 'entity.too.large':
      return new PayloadTooLargeError(bodyLimit);
    case 'parameters.too.many':
      return new PayloadTooLargeError('the number of form fields allowed');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaTypeError('unsupported body encoding or charset');
  }
  // Any other client error raised by a parser (aborted request, bad multipart boundary...).
  if (e && typeof e.status === 'number' && e.status >= 400 && e.status < 500) return new MalformedBodyError('the request body could not be read');
  if (err instanceof Error && /^(Multipart|Malformed part header|Unexpected end of form)/i.test(err.message)) return new MalformedBodyError('the multipart body is malformed');
  const dependency = unavailableDependency(err);
  if (dependency) return new DependencyUnavailableError(dependency, err);
  // busboy reads multipart/form-data only; another multipart subtype is refused before any part is read.
  if (err instanceof Error && err.message.startsWith('Unsupported content type: multipart/')) return new UnsupportedMediaTypeError('multipart bodies must be multipart/form-data');
  return undefined;
}

/**
 * An Express error middleware of this model: a `DomainError` (after `toDomainError`) answers its
 * status and headers with the surface's `body`; anything else is logged and answered 500 with
 * the fixed `fault` body, so no detail of a fault reaches the caller.
 */
export function domainErrorMiddleware(
  logger: Logger,
  options: {
    /** The body of a known error; `res` carries what the route recorded (res.locals). */
    body: (err: DomainError, res: Response) => object;
    fault: object;
    bodyLimit?: string;
    /** The status to answer with, when a surface's protocol fixes its own (default: the error's). */
    status?: (err: DomainError) => number;
  },
): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    // A handler that streams its answer (a file download) failed half-way: the status is sent, so
    // the only honest end is a cut connection, which the client sees as an incomplete body.
    if (res.headersSent) {
      requestLogger(logger, res).error({ err }, 'answer failed after it started');
      res.destroy();
      return;
    }
    const known = toDomainError(err, options.bodyLimit);
    if (!known) {
      requestLogger(logger, res).error({ err }, 'unhandled error');
      res.status(500).json(options.fault);
      return;
    }
    reportUnavailable(logger, known, res);
    res
      .set(known.headers)
      .status(options.status?.(known) ?? known.status)
      .json(options.body(known, res));
  };
}

/**
 * Logs a `DependencyUnavailableError` in its dependency's outage log (once per outage), with the
 * id of the request that met it if `res` is given; other errors are left alone. `logger` is the
 * service's own, not a request's: the outage log is one per service and dependency.
 */
export function reportUnavailable(logger: Logger, err: DomainError, res?: ServerResponse): void {
  if (!(err instanceof DependencyUnavailableError)) return;
  const reqId = res && requestIdOf(res);
  outageLog(logger, err.dependency).failed(err.reason, reqId === undefined ? {} : { reqId });
}

/** Exit code of an admin CLI for a failure: 1 for the operator's mistakes (any DomainError), else 70 (EX_SOFTWARE). */
export function cliExitCode(err: unknown): number {
  return err instanceof DomainError ? 1 : 70;
}
