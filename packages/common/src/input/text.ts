import { isUtf8 } from 'node:buffer';
import { DomainError } from '../http/errors.js';

/**
 * The text Hush takes from a caller, wherever it comes (path, query, form, JSON, multipart).
 * Rules:
 * - bytes are UTF-8, strictly: no overlong form, no encoded surrogate, nothing past U+10FFFF; a
 *   percent-escape is a byte, so `%C3%28`, `%FF` and `%ED%A0%80` are refused like raw bytes;
 * - no NUL (U+0000) in any spelling (a raw byte, `%00`, JSON's `\u0000`): PostgreSQL stores it
 *   in neither text nor jsonb, so it could only ever fail deeper down, as a 500;
 * - no lone UTF-16 surrogate (JSON's `\ud800` without its low half): it is no character, UTF-8
 *   cannot carry it and jsonb refuses it.
 * The problem is named, never the text (it may be a secret).
 */
export type TextProblem = 'a NUL character' | 'a lone surrogate' | 'invalid UTF-8';

/** Where a refused piece of text was: the error's message names it. */
export type TextPlace = 'path' | 'query' | 'body';

/** A request whose text breaks these rules: 400, in each surface's own error shape (OAuth's name for a malformed request). */
export class MalformedTextError extends DomainError {
  constructor(
    readonly place: TextPlace,
    readonly problem: TextProblem,
  ) {
    super(400, 'invalid_request', `The request ${place} is not valid: it holds ${problem} (text must be UTF-8, without NUL characters or lone surrogates)`);
  }
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A string already decoded (a parsed value, a header): NUL or a lone surrogate. */
export function stringProblem(text: string): TextProblem | undefined {
  if (text.includes('\0')) return 'a NUL character';
  return LONE_SURROGATE.test(text) ? 'a lone surrogate' : undefined;
}

/** Raw bytes meant as UTF-8 text. */
export function bytesProblem(bytes: Uint8Array): TextProblem | undefined {
  if (!isUtf8(bytes)) return 'invalid UTF-8';
  return bytes.includes(0) ? 'a NUL character' : undefined;
}

const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i;
for (let i = 0; i < 6; i++) HEX[0x41 + i] = HEX[0x61 + i] = 10 + i;
const hex = (byte: number) => (byte < 128 ? (HEX[byte] as number) : -1);

/** Nothing to decode: printable ASCII without a percent sign (most paths and queries). */
const PLAIN = /^[\x20-\x24\x26-\x7e]*$/;

/**
 * Percent-encoded text (a URL's path or query, an urlencoded form) given as its bytes: a latin1
 * string (node:http's `req.url`) or a Buffer. Each `%XX` is the byte XX; a `%` without two hex
 * digits stays itself, as every parser here reads it.
 */
export function percentEncodedProblem(encoded: string | Uint8Array): TextProblem | undefined {
  if (typeof encoded === 'string') {
    // Nothing to decode (most URLs): plain ASCII.
    if (PLAIN.test(encoded)) return undefined;
    // node:http hands over no URL with characters past latin1; a string that has some is no bytes.
    if (/[\u0100-\uffff]/.test(encoded)) return 'invalid UTF-8';
    return percentEncodedProblem(Buffer.from(encoded, 'latin1'));
  }
  // A first pass without allocating: ASCII throughout (escapes included) is text unless a byte is 0.
  const length = encoded.length;
  for (let i = 0; i < length; i++) {
    let c = encoded[i] as number;
    if (c === 0x25 && i + 2 < length) {
      const high = hex(encoded[i + 1] as number);
      const low = hex(encoded[i + 2] as number);
      if (high >= 0 && low >= 0) {
        c = high * 16 + low;
        i += 2;
      }
    }
    if (c === 0) return 'a NUL character';
    if (c >= 0x80) return bytesProblem(percentDecoded(encoded));
  }
  return undefined;
}

/** The bytes that percent-encoded bytes stand for. */
function percentDecoded(encoded: Uint8Array): Buffer {
  const bytes = Buffer.allocUnsafe(encoded.length);
  let n = 0;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i] as number;
    if (c === 0x25 && i + 2 < encoded.length) {
      const high = hex(encoded[i + 1] as number);
      const low = hex(encoded[i + 2] as number);
      if (high >= 0 && low >= 0) {
        bytes[n++] = high * 16 + low;
        i += 2;
        continue;
      }
    }
    bytes[n++] = c;
  }
  return bytes.subarray(0, n);
}

/** `\uXXXX` escapes and every other escape of JSON text, in order (an escaped backslash is one match, so what follows it is no escape). */
const JSON_ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|[^])/g;

/**
 * JSON text, decoded: NUL or a lone surrogate, raw or escaped. A high surrogate's escape must be
 * followed at once by a low one's (`\ud83d\ude00`), as RFC 8259 §7 spells a character beyond the
 * Basic Multilingual Plane.
 */
export function jsonTextProblem(text: string): TextProblem | undefined {
  const raw = stringProblem(text);
  if (raw || !text.includes('\\')) return raw;
  let lowExpectedAt = -1;
  for (const m of text.matchAll(JSON_ESCAPE)) {
    const unit = m[1] === undefined ? -1 : parseInt(m[1], 16);
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    if (lowExpectedAt >= 0) {
      if (m.index !== lowExpectedAt || !isLow) return 'a lone surrogate';
      lowExpectedAt = -1;
      continue;
    }
    if (unit === 0) return 'a NUL character';
    if (isLow) return 'a lone surrogate';
    if (unit >= 0xd800 && unit <= 0xdbff) lowExpectedAt = m.index + 6;
  }
  return lowExpectedAt >= 0 ? 'a lone surrogate' : undefined;
}

/** JSON given as its bytes, in `charset` (UTF-8 unless the request said otherwise). */
export function jsonProblem(bytes: Uint8Array, charset = 'utf-8'): TextProblem | undefined {
  let text: string;
  if (/^utf-?8$/i.test(charset)) {
    if (!isUtf8(bytes)) return 'invalid UTF-8';
    text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  } else {
    try {
      text = new TextDecoder(charset, { fatal: true }).decode(bytes);
    } catch {
      // Not decodable in the charset it claims (or no charset we know): no text we can accept.
      return 'invalid UTF-8';
    }
  }
  return jsonTextProblem(text);
}

/**
 * A value a parser produced (a JSON document, a form, multipart fields): the first problem of
 * any of its strings, keys included, at any depth. Walked without recursion, so a deeply nested
 * document cannot exhaust the stack.
 */
export function valueProblem(value: unknown): TextProblem | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      const problem = stringProblem(item);
      if (problem) return problem;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, element] of Object.entries(item)) pending.push(key, element);
    }
  }
  return undefined;
}
