import { randomBytes } from 'node:crypto';

/**
 * The requests of Onetime Secret's bash client (eengstrom/onetimesecret-bash, `ots.bash`), written
 * again in TypeScript from reading it, so that its test suite can be replayed against Hush:
 * - parameters are multipart form fields (curl -F); the secret is sent as `echo` writes it, with
 *   a trailing newline (`-F secret='<-'` reads stdin);
 * - HTTP Basic credentials only when a user and a key are both set (curl -u), otherwise none;
 * - a POST without form fields has no body at all (curl -X POST);
 * - each command prints one value picked from the JSON answer with jq's `a // b // "default"`,
 *   and the shell's command substitution drops trailing newlines.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** jq's path `.a.b` on a value: null when any step is missing or not an object. */
export function path(value: Json, dotted: string): Json {
  let current: Json = value;
  for (const step of dotted.split('.').filter(Boolean)) {
    current = current !== null && typeof current === 'object' && !Array.isArray(current) ? (current[step] ?? null) : null;
  }
  return current;
}

/** jq's alternative operator `a // b`: the first value that is neither null nor false. */
export function alternative(value: Json, ...alternatives: (string | { literal: string })[]): Json {
  for (const alt of alternatives) {
    const v = typeof alt === 'string' ? path(value, alt) : alt.literal;
    if (v !== null && v !== false) return v;
  }
  return null;
}

/** What `jq -r` prints for a value, as command substitution keeps it (trailing newlines dropped). */
export function raw(value: Json): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/\n+$/, '');
}

/** Joins all parts with the separator (the client's helper for its arguments). */
export function join(separator: string, ...parts: string[]): string {
  return parts.join(separator);
}

export interface BashClientOptions {
  /** Scheme and host; the API is `${host}/api/v1`. */
  host: string;
  user?: string;
  key?: string;
}

/**
 * A multipart/form-data body as curl -F writes it: text fields without a filename, values as
 * given (no newline conversion, unlike the FormData of fetch, which turns \n into \r\n).
 */
export function multipart(fields: [string, string][]): { body: string; contentType: string } {
  const boundary = `------------------------${randomBytes(8).toString('hex')}`;
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

export class BashClient {
  constructor(private readonly options: BashClientOptions) {}

  setUser(user: string | undefined): void {
    this.options.user = user;
  }

  setKey(key: string | undefined): void {
    this.options.key = key;
  }

  private get api(): string {
    return `${this.options.host}/api/v1`;
  }

  private get authorization(): Record<string, string> {
    const { user, key } = this.options;
    return user && key ? { Authorization: `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}` } : {};
  }

  /** One curl call: multipart fields when there are any, no body otherwise. */
  private async curl(method: 'GET' | 'POST', url: string, opts: { auth: boolean; form?: [string, string][] }): Promise<Json> {
    const headers: Record<string, string> = opts.auth ? { ...this.authorization } : {};
    let body: string | undefined;
    if (opts.form && opts.form.length > 0) {
      ({ body, contentType: headers['Content-Type'] } = multipart(opts.form));
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    try {
      return JSON.parse(text) as Json;
    } catch {
      return text;
    }
  }

  /** `ots status`: `.status // .message // "Unknown Error"`. */
  async status(): Promise<string> {
    const answer = await this.curl('GET', `${this.api}/status`, { auth: true });
    return raw(alternative(answer, 'status', 'message', { literal: 'Unknown Error' }));
  }

  /** `ots metashare [k=v...] -- words...`: the metadata key of the new secret (`.metadata_key`). */
  async metashare(secretWords: string[], form: [string, string][] = []): Promise<string> {
    if (secretWords.length === 0 || secretWords.join(' ') === '') throw new Error('No secret data given');
    const secret = `${secretWords.join(' ')}\n`; // echo "${SECRET[@]}"
    const answer = await this.curl('POST', `${this.api}/share`, { auth: true, form: [...form, ['secret', secret]] });
    return raw(path(answer, 'metadata_key'));
  }

  /** `ots share`: the secret's URL, built from the key the metadata gives. */
  async share(secretWords: string[], form: [string, string][] = []): Promise<string> {
    return this.url(await this.metashare(secretWords, form));
  }

  /** `ots metagenerate [k=v...]`: `.metadata_key`. */
  async metagenerate(form: [string, string][] = []): Promise<string> {
    const answer = await this.curl('POST', `${this.api}/generate`, { auth: true, form });
    return raw(path(answer, 'metadata_key'));
  }

  /** `ots get [k=v...] -- KEY|URL`: `.value // .message // "Unknown Error"`; never sends credentials. */
  async get(keyOrUrl?: string, form: [string, string][] = []): Promise<string> {
    if (keyOrUrl === undefined) throw new Error('No URL or secret key given');
    const key = keyOrUrl.includes(this.options.host) ? keyOrUrl.slice(keyOrUrl.lastIndexOf('/') + 1) : keyOrUrl;
    const answer = await this.curl('POST', `${this.api}/secret/${key}`, { auth: false, form });
    return raw(alternative(answer, 'value', 'message', { literal: 'Unknown Error' }));
  }

  /** `ots burn KEY`: `.state.state // .message // "Unknown Error"` (the answer is nested). */
  async burn(metadataKey?: string): Promise<string> {
    if (metadataKey === undefined) throw new Error('No metadata key given');
    const answer = await this.curl('POST', `${this.api}/private/${metadataKey}/burn`, { auth: true });
    return raw(alternative(answer, 'state.state', 'message', { literal: 'Unknown Error' }));
  }

  /** `ots metadata KEY`: `.message // .` — the whole JSON, or the error message. */
  async metadata(metadataKey: string): Promise<Json> {
    const answer = await this.curl('POST', `${this.api}/private/${metadataKey}`, { auth: false });
    return alternative(answer, 'message') ?? answer;
  }

  /** `ots state KEY`: `.state // .message // "unknown"`. */
  async state(metadataKey: string): Promise<string> {
    const answer = await this.curl('POST', `${this.api}/private/${metadataKey}`, { auth: false });
    return raw(alternative(answer, 'state', 'message', { literal: 'unknown' }));
  }

  /** `ots key KEY`: `.secret_key` of the metadata. */
  async key(metadataKey: string): Promise<string> {
    const answer = await this.curl('POST', `${this.api}/private/${metadataKey}`, { auth: false });
    return raw(path(answer, 'secret_key'));
  }

  /** `ots url KEY`. */
  async url(metadataKey: string): Promise<string> {
    return `${this.options.host}/secret/${await this.key(metadataKey)}`;
  }

  /** `ots recent`: one metadata key per line; without credentials the client refuses by itself. */
  async recent(): Promise<string> {
    if (!this.authorization['Authorization']) return 'Authentication Required';
    const answer = await this.curl('GET', `${this.api}/private/recent`, { auth: true });
    if (Array.isArray(answer)) return answer.map((item) => raw(path(item, 'metadata_key'))).join('\n');
    return raw(alternative(answer, 'message', { literal: 'Unknown Error' }));
  }
}
