/**
 * Matching of the API's declared paths (`/secret/:key`), as Express matches them for plain
 * patterns: literal segments without letter case, a `:name` segment takes one whole segment.
 * It only sees canonical paths (no trailing slash, no empty segment, no percent-escape), so
 * parameters need no decoding; anything else is left to Express.
 */

type Segment = string | { param: string };

export interface Pattern<T> {
  method: string;
  segments: readonly Segment[];
  target: T;
}

const LITERAL = /^[a-z0-9._~-]+$/;
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

/** The segments of a declared path; a path outside this small grammar is a mistake in the table. */
export function segmentsOf(path: string): Segment[] {
  if (!path.startsWith('/')) throw new Error(`API path ${path} must start with /`);
  return path
    .slice(1)
    .split('/')
    .map((part) => {
      const param = PARAM.exec(part);
      if (param) return { param: param[1]! };
      if (LITERAL.test(part)) return part;
      throw new Error(`API path ${path}: segment "${part}" is neither lower-case literal nor :name`);
    });
}

export interface Matcher<T> {
  /** The first pattern, in declaration order, for a method (upper case) and the path's segments. */
  match(method: string, segments: readonly string[]): { target: T; params: Record<string, string> } | undefined;
}

export function matcher<T>(patterns: readonly Pattern<T>[]): Matcher<T> {
  // Bucketed by method and segment count: a lookup compares a handful of patterns at most.
  const buckets = new Map<string, Pattern<T>[][]>();
  for (const p of patterns) {
    const method = p.method.toUpperCase();
    const byLength = buckets.get(method) ?? [];
    (byLength[p.segments.length] ??= []).push(p);
    buckets.set(method, byLength);
  }
  return {
    match(method, segments) {
      const bucket = buckets.get(method)?.[segments.length];
      if (!bucket) return undefined;
      for (const p of bucket) {
        if (!literalsMatch(p.segments, segments)) continue;
        const params: Record<string, string> = {};
        for (let i = 0; i < segments.length; i++) {
          const s = p.segments[i]!;
          if (typeof s !== 'string') params[s.param] = segments[i]!;
        }
        return { target: p.target, params };
      }
      return undefined;
    },
  };
}

function literalsMatch(pattern: readonly Segment[], segments: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = pattern[i]!;
    if (typeof s === 'string' && s !== segments[i] && s !== segments[i]!.toLowerCase()) return false;
  }
  return true;
}
