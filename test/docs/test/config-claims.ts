import { inCodeBlock } from './markdown.js';

/**
 * The defaults a document states for configuration variables, in the forms our documents write
 * them. A code span holding a variable's name (`KEY`, or `replicas × KEY`) followed by
 *
 *   (NUMBER)   (NUMBER: ...)   (NUMBER, ...)   (NUMBER by default ...)   (NUMBER per pod by default)
 *   , NUMBER)   , NUMBER, ...   , NUMBER by default   (default VALUE ...)   , default VALUE ...
 *   , a few words describing it (NUMBER)   a few words (NUMBER by default)
 *
 * where NUMBER is a number (1,000 and 0.5 too) with an optional unit, and VALUE a NUMBER, a
 * `code span` or true/false: a literal in code is a default only where the words say so, as it is
 * as often an example ("(`http://127.0.0.1:8080`)"). A parenthesis that goes on with other words
 * and never says "default" ("(10 in the manifests)", "(32 characters or more)") states something
 * else and is left alone, as is a value in a code block. Durations are compared in the variable's
 * own unit: milliseconds for a name ending in _MS, seconds otherwise.
 */
export interface Claim {
  key: string;
  line: number;
  /** As written, for the report. */
  text: string;
  value: string | number | boolean;
}

const UNITS: Record<string, number> = {
  ms: 0.001,
  s: 1,
  second: 1,
  seconds: 1,
  m: 60,
  min: 60,
  minute: 60,
  minutes: 60,
  h: 3600,
  hour: 3600,
  hours: 3600,
  day: 86_400,
  days: 86_400,
};
const VALUE = /^(?:(`[^`]+`)|(true|false)\b|(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s?(ms|s|seconds?|m|min|minutes?|h|hours?|days?)\b)?)/;

/** The value a clause after the variable's name states as its default, if it states one. */
export function statedValue(key: string, clause: string): string | number | boolean | undefined {
  const explicit = /^(?:by )?default:?\s+/.exec(clause);
  const rest = explicit ? clause.slice(explicit[0].length) : clause;
  const m = VALUE.exec(rest);
  if (!m) return undefined;
  const after = rest.slice(m[0].length);
  if (!explicit && (m[3] === undefined || (!/^\s*($|[):,;]|by default)/.test(after) && !/^[^()]*by default/.test(after)))) return undefined;
  if (m[1] !== undefined) return m[1].slice(1, -1);
  if (m[2] !== undefined) return m[2] === 'true';
  const n = Number((m[3] ?? '').replaceAll(',', ''));
  const unit = m[4];
  if (unit === undefined) return n;
  const seconds = n * (UNITS[unit] ?? 1);
  return key.endsWith('_MS') ? seconds * 1000 : seconds;
}

/** Every default `markdown` states for one of `keys` (a sentence may run over several lines). */
export function claims(markdown: string, keys: ReadonlySet<string>): Claim[] {
  const inCode = inCodeBlock(markdown);
  const text = markdown
    .split('\n')
    .map((line, i) => (inCode[i] ? '' : line))
    .join('\n');
  const found: Claim[] = [];
  for (const span of text.matchAll(/`([^`\n]+)`/g)) {
    const key = [...(span[1] ?? '').matchAll(/\b[A-Z][A-Z0-9_]+\b/g)].map((k) => k[0]).find((k) => keys.has(k));
    if (!key) continue;
    const start = (span.index ?? 0) + span[0].length;
    // The rest of the sentence, lines joined, up to a paragraph's end.
    const tail = (text.slice(start, start + 200).split('\n\n')[0] ?? '').replace(/\s*\n\s*/g, ' ');
    const clauses = [
      /^\s?\(([^)]*)\)?/.exec(tail)?.[1],
      /^,\s([^;)]*)/.exec(tail)?.[1],
      // `KEY` of both services (10 per pod by default), `KEY`, the seconds the link lives (3 days):
      // a few words on, the parenthesis closing a description of the variable.
      /^,?(?:\s[a-z-]+){1,6}\s\(([^)]*)\)/.exec(tail)?.[1],
    ];
    const clause = clauses.find((c) => c !== undefined && statedValue(key, c.trim()) !== undefined);
    if (clause === undefined) continue;
    const value = statedValue(key, clause.trim());
    const line = text.slice(0, span.index ?? 0).split('\n').length;
    if (value !== undefined) found.push({ key, line, text: `${span[0]}${tail.slice(0, tail.indexOf(clause) + clause.length + 1)}`, value });
  }
  return found;
}
