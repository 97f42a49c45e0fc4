import bodyParser from 'body-parser';
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import type { KeyRing } from '../crypto/crypto-ring.js';
import { toDomainError } from '../http/errors.js';
import { createCsrf, CSRF_FIELD, CsrfRejectedError, formGuard, sameOrigin, type FormGuard } from './csrf.js';
import { verifyBodyText } from './text-input.js';

/**
 * The one way our pages read a form POST. Rules:
 * - a POST a browser says came from another site is refused (403) before its body is read;
 * - the urlencoded body is bounded by what its legitimate fields can hold (`formBodyLimit`), and
 *   by FORM_FIELD_LIMIT fields; beyond either is a 413 naming the limit;
 * - a body that is not UTF-8 text without NUL characters is refused (400) before it is parsed
 *   (text-input.ts);
 * - a field is text sent once: absent or repeated (an array) reads as undefined (`formField`),
 *   and a zod schema reads the fields a route needs (`readForm`);
 * - the CSRF token of a form is HMAC(key, binding) in the field `csrf` (csrf.ts): `token` writes
 *   it, `check` refuses a form without it; pages without a session bind it to the browser (`browser`).
 */

/** Our largest form has eight fields: a hundred leaves room and still stops a flood of parameters. */
export const FORM_FIELD_LIMIT = 100;

/** A character of a field, at worst: four UTF-8 bytes, each percent-encoded. */
const BYTES_PER_CHARACTER = 12;
/** Field names, separators, the CSRF token and other short fields. */
const FORM_OVERHEAD = 4096;

/**
 * The one body limit rule of every page form: `characters` is the most its legitimate fields hold
 * together (a share form: the longest secret a plan takes and a passphrase), each at its worst
 * encoding, plus the overhead; in whole kB. A passphrase form (1,024 characters) gets 16 kB.
 */
export function formBodyLimit(characters: number): number {
  return Math.ceil((characters * BYTES_PER_CHARACTER + FORM_OVERHEAD) / 1024) * 1024;
}

/**
 * One field of a form parsed by `read`: its value when it was sent once, as text; undefined when
 * it is absent, repeated (an array) or the request carried no form at all.
 */
export function formField(req: { body?: unknown }, name: string): string | undefined {
  const body = req.body;
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The form's text fields (each sent once) read through `schema`; a repeated field is absent. */
export function readForm<S extends z.ZodType>(req: { body?: unknown }, schema: S): z.output<S> {
  const body = req.body;
  const fields: Record<string, string> = {};
  if (typeof body === 'object' && body !== null) {
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  }
  return schema.parse(fields);
}

export interface PageForms {
  /** The middlewares before a form POST's handler: the origin check, then the body within `formBodyLimit(characters)`. */
  read(characters: number): RequestHandler[];
  /** The CSRF token of a form bound to `binding` (a session, an interaction...) and its resource. */
  token(binding: string): string;
  /** Throws CsrfRejectedError unless the form's `csrf` field is the token of `binding`. */
  check(req: { body?: unknown }, binding: string): void;
  /** CSRF for pages without a session: the binding is a random client id in a cookie. */
  readonly browser: FormGuard;
}

export interface PageFormsOptions {
  /** The service's CSRF key (derived from its master key), or the ring of them during a key rotation. */
  csrfKey: Buffer | KeyRing;
  /** Public origins accepted as a form's Origin besides the request's Host. */
  origins?: readonly string[];
}

export function pageForms(options: PageFormsOptions): PageForms {
  const csrf = createCsrf(options.csrfKey);
  const fromHere = sameOrigin(options.origins ?? []);
  const readers = new Map<number, RequestHandler[]>();
  const read = (characters: number): RequestHandler[] => {
    let chain = readers.get(characters);
    if (!chain) {
      chain = [fromHere, urlencoded(formBodyLimit(characters))];
      readers.set(characters, chain);
    }
    return chain;
  };
  const check = (req: { body?: unknown }, binding: string) => {
    if (!csrf.verify(binding, formField(req, CSRF_FIELD))) throw new CsrfRejectedError();
  };
  const token = (binding: string) => csrf.token(binding);
  return { read, token, check, browser: formGuard(csrf) };
}

/** body-parser's urlencoded reader; its errors leave as DomainErrors naming this form's limit. */
function urlencoded(bytes: number): RequestHandler {
  const parse = bodyParser.urlencoded({ extended: false, limit: bytes, parameterLimit: FORM_FIELD_LIMIT, verify: verifyBodyText('form') });
  const limit = `${bytes / 1024} kB`;
  return (req, res, next) => {
    const done = (err?: unknown) => next(err === undefined ? undefined : (toDomainError(err, limit) ?? err));
    parse(req, res, done);
  };
}
