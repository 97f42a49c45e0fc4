import { bytesProblem, jsonProblem, jsonTextProblem, MalformedTextError, percentEncodedProblem, stringProblem, valueProblem } from './text.js';

describe('percent-encoded text (paths, queries, forms)', () => {
  it.each([
    ['/auth/realms/public/protocol/openid-connect/auth?client_id=app&state=abc'],
    ['redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=openid+profile'],
    ['name=%C3%A9t%C3%A9&emoji=%F0%9F%98%80'],
    ['a=100%&b=%zz&c=%'], // a percent sign without two hex digits stays itself
    [''],
  ])('%s is accepted', (encoded) => {
    expect(percentEncodedProblem(encoded)).toBeUndefined();
    expect(percentEncodedProblem(Buffer.from(encoded, 'latin1'))).toBeUndefined();
  });

  it.each([
    ['state=%00', 'a NUL character'],
    ['/users/a%00b', 'a NUL character'],
    ['x=%C3%28', 'invalid UTF-8'],
    ['x=%FF', 'invalid UTF-8'],
    ['x=%ff', 'invalid UTF-8'],
    ['x=%ED%A0%80', 'invalid UTF-8'], // a surrogate, encoded: CESU-8, not UTF-8
    ['x=%C0%80', 'invalid UTF-8'], // an overlong NUL
    ['x=%F4%90%80%80', 'invalid UTF-8'], // past U+10FFFF
    ['x=%E2%82', 'invalid UTF-8'], // cut short
  ])('%s: %s', (encoded, problem) => {
    expect(percentEncodedProblem(encoded)).toBe(problem);
    expect(percentEncodedProblem(Buffer.from(encoded, 'latin1'))).toBe(problem);
  });

  it('reads raw bytes of a body as UTF-8', () => {
    expect(percentEncodedProblem(Buffer.from('name=été'))).toBeUndefined();
    expect(percentEncodedProblem(Buffer.from([0x61, 0x3d, 0xff]))).toBe('invalid UTF-8');
    expect(percentEncodedProblem(Buffer.from([0x61, 0x3d, 0x00]))).toBe('a NUL character');
  });
});

describe('JSON text', () => {
  it.each([
    ['{"name":"été 😀"}'],
    ['{"emoji":"\\ud83d\\ude00","pair":"\\uD83D\\uDE00"}'],
    ['{"literal":"\\\\u0000","path":"C:\\\\ud800"}'], // an escaped backslash, then plain letters
    ['{"quote":"\\"","tab":"\\t","a":"\\u0041"}'],
    ['[]'],
  ])('%s is accepted', (text) => {
    expect(jsonTextProblem(text)).toBeUndefined();
    expect(jsonProblem(Buffer.from(text))).toBeUndefined();
  });

  it.each([
    ['{"a":"x\\u0000y"}', 'a NUL character'],
    ['{"a\\u0000":"x"}', 'a NUL character'],
    ['{"a":"\\\\\\u0000"}', 'a NUL character'], // an escaped backslash, then an escaped NUL
    ['{"a":"\\ud800"}', 'a lone surrogate'],
    ['{"a":"\\ud800x"}', 'a lone surrogate'],
    ['{"a":"\\ud800\\u0041"}', 'a lone surrogate'],
    ['{"a":"\\udc00"}', 'a lone surrogate'],
    ['{"a":"\\ude00\\ud83d"}', 'a lone surrogate'],
    ['{"a":"\\ud83d"}', 'a lone surrogate'],
    ['{"a":"x\u0000"}', 'a NUL character'], // a raw NUL (invalid JSON too)
  ])('%s: %s', (text, problem) => {
    expect(jsonTextProblem(text)).toBe(problem);
    expect(jsonProblem(Buffer.from(text))).toBe(problem);
  });

  it('refuses bytes that are not UTF-8, and reads another charset the request names', () => {
    expect(jsonProblem(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).toBe('invalid UTF-8');
    expect(jsonProblem(Buffer.from('{"a":"é"}', 'utf16le'), 'utf-16le')).toBeUndefined();
    expect(jsonProblem(Buffer.from('{"a":"\\u0000"}', 'utf16le'), 'utf-16le')).toBe('a NUL character');
    expect(jsonProblem(Buffer.from('{}'), 'no-such-charset')).toBe('invalid UTF-8');
  });
});

describe('decoded strings and parsed values', () => {
  it('finds NUL and lone surrogates, keys included, at any depth', () => {
    expect(stringProblem('été 😀')).toBeUndefined();
    expect(stringProblem('a\u0000')).toBe('a NUL character');
    expect(stringProblem('\ud800')).toBe('a lone surrogate');
    expect(stringProblem('\udc00\ud800')).toBe('a lone surrogate');
    expect(valueProblem({ a: [1, true, null, { b: 'ok' }] })).toBeUndefined();
    expect(valueProblem({ a: [{ b: ['x\u0000'] }] })).toBe('a NUL character');
    expect(valueProblem({ ['k\ud800']: 1 })).toBe('a lone surrogate');
  });

  it('walks a deeply nested document without exhausting the stack', () => {
    const deep = JSON.parse(`${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}`) as unknown;
    expect(valueProblem(deep)).toBe('a NUL character');
  });

  it('bytes: strict UTF-8 without NUL', () => {
    expect(bytesProblem(Buffer.from('ok é'))).toBeUndefined();
    expect(bytesProblem(Buffer.from([0xc0, 0x80]))).toBe('invalid UTF-8');
    expect(bytesProblem(Buffer.from([0x61, 0]))).toBe('a NUL character');
  });
});

it('the error names the place and the problem, never the text, and is a 400 invalid_request', () => {
  const err = new MalformedTextError('query', 'a NUL character');
  expect({ status: err.status, code: err.code }).toEqual({ status: 400, code: 'invalid_request' });
  expect(err.message).toBe('The request query is not valid: it holds a NUL character (text must be UTF-8, without NUL characters or lone surrogates)');
});
