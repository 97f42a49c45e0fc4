import type { Request } from 'express';
import { z } from 'zod';
import { InvalidParameterError, MalformedBodyError } from '../errors.js';

export type Params = Record<string, unknown>;

/**
 * Onetime Secret's clients send parameters in the query string (Go), urlencoded or multipart
 * forms (curl -d / -F) or JSON; like Rack's `req.params` we merge them, the body winning.
 */
export function collectParams(req: Request): Params {
  const body: unknown = req.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new MalformedBodyError('the request body must be a JSON object or a form');
  }
  return { ...(req.query as Params), ...((body as Params | undefined) ?? {}) };
}

/**
 * One parameter as text, whatever the encoding: strings as sent, JSON numbers and booleans as
 * their text, a one-element array (`name[]` form fields) as its element, null as absent.
 * Anything else (two values, an object) is an issue marked `multiple`; the value then reads as
 * absent, but the issue fails the field before its schema runs.
 */
function single(value: unknown, ctx: z.RefinementCtx): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
  ctx.addIssue({ code: 'custom', message: 'given more than once', params: { multiple: true } });
  return undefined;
}

/** A text parameter checked by `schema`; '' is kept (see `blankable` for fields where it means absent). */
export function text<T extends z.ZodType>(schema: T) {
  return z.preprocess(single, schema);
}

/** A text parameter where an empty value (after trimming, with `trim`) means absent (HTML forms send empty fields). */
export function blankable<T extends z.ZodType>(schema: T, { trim = false } = {}) {
  return z.preprocess((value: unknown, ctx) => {
    const raw = single(value, ctx);
    const v = trim ? raw?.trim() : raw;
    return v === '' ? undefined : v;
  }, schema);
}

/**
 * A whole number sent as at most `digits` decimal digits (surrounding blanks allowed, blank means
 * absent): no sign, fraction or exponent, whichever encoding carried it. The bounds and default
 * are `schema`'s; anything else reaches it as text and fails its type check.
 */
export function wholeNumber<T extends z.ZodType>(digits: number, schema: T) {
  const pattern = new RegExp(`^\\d{1,${digits}}$`);
  return z.preprocess((value: unknown, ctx) => {
    const raw = single(value, ctx)?.trim();
    if (raw === undefined || raw === '') return undefined;
    return pattern.test(raw) ? Number(raw) : raw;
  }, schema);
}

/** How a field's issues become the errors clients see; a field without an entry gets `invalid_parameter`. */
export interface FieldErrors {
  /** The value is there once but wrong. Default: `invalid_parameter` with the schema's message. */
  invalid?: (issue: z.core.$ZodIssue) => Error;
  /** The field was given more than once. Default: `invalid_parameter`, "<name> must be given once, as a string". */
  multiple?: () => Error;
}

export interface ParamsParser<S extends z.ZodType> {
  /** The schema, for the OpenAPI document (its input side is what the wire carries). */
  readonly schema: S;
  /** Parses the merged parameters (`collectParams`) or throws the first field's error, in the schema's key order. */
  parse(params: Params): z.output<S>;
}

/**
 * Built once per schema (at start-up): the request path only runs `parse`, on zod's compiled
 * clone of the schema (`z.compile`: a generated parser for valid input, zod's own parser for the
 * rest, so results and issues are zod's either way). The compiled path also skips the memoizer
 * zod wraps around schemas it cannot prove acyclic (ours, through their preprocess steps), whose
 * per-parse state outlived the requests under load: ~0.7 KB promoted to the old generation per
 * share (docs/performance.md).
 */
export function paramsParser<S extends z.ZodType>(schema: S, fields: Record<string, FieldErrors> = {}): ParamsParser<S> {
  const compiled = z.compile(schema);
  return {
    schema,
    // parse and catch, not safeParse: a failed safeParse returns its error behind a getter defined
    // per result, and V8 allocates that accessor in the old generation, where it kept the failed
    // input (and so the request's parameters) through every young collection until the next full
    // one: ~1.6 KB promoted per 400 against ~0.2 this way (bench/gc-promotion.mjs, phase `bad`).
    parse(params) {
      try {
        return compiled.parse(params);
      } catch (err) {
        if (err instanceof z.ZodError) throw toError(err.issues[0], fields);
        throw err;
      }
    },
  };
}

function toError(issue: z.core.$ZodIssue | undefined, fields: Record<string, FieldErrors>): Error {
  const name = String(issue?.path[0] ?? 'input');
  const errors = fields[name];
  if (issue?.code === 'custom' && (issue.params as { multiple?: boolean } | undefined)?.multiple) {
    return errors?.multiple?.() ?? new InvalidParameterError(`${name} must be given once, as a string`);
  }
  if (issue && errors?.invalid) return errors.invalid(issue);
  return new InvalidParameterError(issue?.message ?? 'invalid parameters');
}
