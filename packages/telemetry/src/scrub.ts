/**
 * What leaves the process in a span must never hold a secret, a token, a key, an e-mail address
 * or a link. The instrumentations record URLs (the secret's key is a path segment of its link,
 * query strings carry codes and tokens), and error messages may quote an address or a URL; these
 * rules rewrite every attribute, event attribute, span name and status message before export:
 * - headers and query strings are dropped;
 * - a URL keeps its scheme, host and port, and a path keeps only segments that read as words
 *   (`/api/v1/secret/<key>` becomes `/api/v1/secret/:value`), route parameters (`:key`) kept;
 * - an e-mail address becomes `[address]`; a long token of letters and digits (a key, a code, a
 *   JWT part) becomes `[value]`.
 * PostgreSQL statements are recorded without their parameters and Redis commands without their
 * arguments (sdk.ts): what is left of them is our own SQL text and command names.
 */

export type AttributeValue = string | number | boolean | Array<null | undefined | string | number | boolean>;
export type Attributes = Record<string, AttributeValue | undefined>;

/** Attributes that hold a URL (or a path with its query): rewritten as URLs whatever their text. */
const URL_KEYS = new Set(['url.full', 'http.url', 'url.original', 'url.path', 'http.target']);
/** Attributes that go whole. */
const DROPPED = (key: string) => key === 'url.query' || key === 'url.fragment' || key.startsWith('http.request.header.') || key.startsWith('http.response.header.');

/** A path segment kept as it is: a word (`openid-connect`, `.well-known`), an API version, or a route parameter. */
const WORD = /^(?:\.?[A-Za-z][A-Za-z._-]{0,23}|v\d{1,2}|:[A-Za-z_]\w{0,30}|\*)$/;
const ADDRESS = /[^\s@<>()"',;:/]+@[^\s@<>()"',;:/]+\.[A-Za-z]{2,}/g;
/** 20 or more letters, digits, `-` and `_` with both letters and digits: a key, a code, a token. */
const TOKEN = /(?<![A-Za-z0-9_-])(?=[A-Za-z_-]*\d)(?=[0-9_-]*[A-Za-z])[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g;
const ABSOLUTE_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;

export function scrubPath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  return bare
    .split('/')
    .map((segment) => (segment === '' || WORD.test(segment) ? segment : ':value'))
    .join('/');
}

export function scrubUrl(text: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/i.exec(text);
  if (!match) return scrubPath(text);
  const [, scheme, authority = '', rest = ''] = match;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return `${scheme}${host}${scrubPath(rest)}`;
}

/** Free text (a name, a message, an attribute that is not a URL): URLs, addresses and tokens in it rewritten. */
export function scrubText(text: string): string {
  return text
    .replace(ABSOLUTE_URL, (url) => scrubUrl(url))
    .replace(ADDRESS, '[address]')
    .replace(TOKEN, '[value]');
}

function scrubValue(key: string, value: AttributeValue): AttributeValue {
  if (typeof value === 'string') return URL_KEYS.has(key) ? scrubText(scrubUrl(value)) : scrubText(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? scrubText(v) : v));
  return value;
}

/** Rewrites `attributes` in place by the rules above. */
export function scrubAttributes(attributes: Attributes): void {
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (DROPPED(key)) delete attributes[key];
    else if (value !== undefined) attributes[key] = scrubValue(key, value);
  }
}
