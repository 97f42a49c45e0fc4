import { Readable } from 'node:stream';
import { DomainError } from '@hush/common';
import { leanKind, readLeanBody, viaBodyParser as bodyParser } from './body.js';

// The lean reader must read every body exactly as body-parser (through `viaBodyParser`) does: the same object, or the same error type and status. Each body below goes
// through both; tricky forms (brackets, prototype names, too many fields) take the lean parser's
// hand-over to body-parser, which must give the same answer too.

type Outcome = { body?: unknown; error?: { type?: string; status?: number } };

function request(type: string, raw: Buffer) {
  const stream = new Readable({ read: () => undefined });
  stream.push(raw);
  stream.push(null);
  return Object.assign(stream, {
    headers: { 'content-type': type, 'content-length': String(raw.length) },
    method: 'POST',
    url: '/',
    complete: false,
    socket: { readable: true },
    body: undefined,
  });
}

/** An error by its type: body-parser's, or the code of ours (the input layer's refusal, which body-parser passes on as it is). */
const outcomeOf = (err: unknown, body: unknown): Outcome => {
  if (!err) return { body: JSON.parse(JSON.stringify(body ?? null)) as unknown };
  const e = err as { type?: string; status?: number };
  return { error: { type: err instanceof DomainError ? err.code : e.type, status: e.status } };
};

function viaBodyParser(type: string, raw: Buffer): Promise<Outcome> {
  const req = request(type, raw);
  req.on('end', () => (req.complete = true));
  return new Promise((resolve) => bodyParser(req as never, {} as never, (err?: unknown) => resolve(outcomeOf(err, req.body))));
}

async function viaLean(type: string, raw: Buffer): Promise<Outcome> {
  const req = request(type, raw);
  const kind = leanKind(req as never);
  if (!kind) throw new Error(`not lean: ${type}`);
  try {
    await readLeanBody(req as never, kind);
    return outcomeOf(undefined, req.body);
  } catch (err) {
    return outcomeOf(err, undefined);
  }
}

const FORM = 'application/x-www-form-urlencoded';
const forms = [
  '',
  'secret=x',
  'secret=x&ttl=3600',
  'secret=a+b%20c&ttl=60',
  'secret=%E2%82%AC%F0%9F%94%91',
  'secret=%zz&ttl=%',
  'secret=%E2%82',
  'a=1&a=2&a=3',
  'a=1&&b=2&',
  '&&&',
  'flag&secret=x',
  '=x&secret=y',
  'secret=x=y=z',
  'recipient[]=bar@example.org&secret=x',
  'recipient%5B%5D=bar@example.org',
  'a[b]=1&a[c]=2',
  '__proto__=x&secret=y',
  'constructor=x',
  'toString=1&hasOwnProperty=2',
  'sec+ret=1&sec%20ret=2',
  Array.from({ length: 50 }, (_, i) => `k${i}=v`).join('&'),
  Array.from({ length: 51 }, (_, i) => `k${i}=v`).join('&'),
  Array.from({ length: 49 }, () => '').join('&'),
  'x'.repeat(1000) + '=1',
  'secret=a%00b',
  'secret=%C3%28',
  'secret=%ED%A0%80',
];

const JSON_TYPE = 'application/json';
const jsons = [
  '',
  '{}',
  '[]',
  '{"secret":"x","ttl":3600}',
  '  \n{"a":[1,2]}',
  '{"secret": ',
  '"string"',
  '42',
  'null',
  ' ',
  '\uFEFF{"a":1}',
  '\uFEFF',
  '{"__proto__":{"x":1}}',
  '{"secret":"a\\u0000"}',
  '{"secret":"\\ud800"}',
  '{"secret":"\\ud83d\\ude00"}',
];

describe('the lean body parser reads what body-parser reads', () => {
  it.each(forms)('urlencoded %j', async (body) => {
    const raw = Buffer.from(body);
    expect(await viaLean(FORM, raw)).toEqual(await viaBodyParser(FORM, raw));
  });

  it.each(jsons)('JSON %j', async (body) => {
    const raw = Buffer.from(body);
    expect(await viaLean(JSON_TYPE, raw)).toEqual(await viaBodyParser(JSON_TYPE, raw));
  });

  it('a byte order mark and invalid UTF-8', async () => {
    for (const raw of [Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x3d, 0x31]), Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0xc3])]) {
      expect(await viaLean(FORM, raw)).toEqual(await viaBodyParser(FORM, raw));
    }
  });

  it.each([FORM, `${FORM}; charset=utf-8`, JSON_TYPE, 'application/json;charset=UTF-8', 'Application/JSON'])('takes %s', (type) => {
    expect(leanKind(request(type, Buffer.from('')) as never)).toBeDefined();
  });

  it.each(['multipart/form-data; boundary=x', `${FORM}; charset=iso-8859-1`, 'application/vnd.api+json', 'text/plain', ` ${FORM}`])('leaves %s to body-parser', (type) => {
    expect(leanKind(request(type, Buffer.from('')) as never)).toBeUndefined();
  });

  it('leaves chunked, compressed and oversized bodies to body-parser', () => {
    const base = { 'content-type': FORM, 'content-length': '10' };
    expect(leanKind({ headers: { ...base, 'transfer-encoding': 'chunked' } } as never)).toBeUndefined();
    expect(leanKind({ headers: { ...base, 'content-encoding': 'gzip' } } as never)).toBeUndefined();
    expect(leanKind({ headers: { ...base, 'content-length': String(256 * 1024 + 1) } } as never)).toBeUndefined();
    expect(leanKind({ headers: { 'content-type': FORM } } as never)).toBeUndefined();
  });
});
