import type { Request } from 'express';
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

/** One string-valued parameter (numbers and booleans from JSON are taken as their text). */
export function single(params: Params, name: string, ...aliases: string[]): string | undefined {
  for (const key of [name, ...aliases]) {
    const v = params[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (Array.isArray(v) && v.length === 1 && typeof v[0] === 'string') return v[0];
    throw new InvalidParameterError(`${name} must be given once, as a string`);
  }
  return undefined;
}
