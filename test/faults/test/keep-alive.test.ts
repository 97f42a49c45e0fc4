import { connect, type Socket } from 'node:net';
import { startIdentity, type Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import { startSecrets, type Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';

/**
 * A body refused for its size or its form leaves the kept-alive connection usable: the next
 * request on that same connection is answered, or the refusal said `Connection: close` and the
 * connection was closed. Raw sockets, so the second request provably rides the first's connection.
 */
const OVERSIZED = 2 * 1024 * 1024;
const ANSWER_MS = 5000;

let identity: IdentityHarness;
let secrets: SecretsHarness;

beforeAll(async () => {
  [identity, secrets] = await Promise.all([startIdentity(), startSecrets()]);
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([identity?.close(), secrets?.close()]);
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
}

/** Reads one HTTP/1.1 response (headers and a Content-Length or chunked body) off `socket`. */
function readResponse(socket: Socket): Promise<RawAnswer | 'closed' | 'no answer'> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    const done = (outcome: RawAnswer | 'closed' | 'no answer') => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(outcome);
    };
    const timer = setTimeout(() => done('no answer'), ANSWER_MS);
    const onClose = () => done('closed');
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = buffer.subarray(end + 4);
      const complete =
        headers['content-length'] !== undefined ? body.length >= Number(headers['content-length']) : headers['transfer-encoding'] === 'chunked' ? body.includes('0\r\n\r\n') : true;
      if (complete) done({ status: Number(statusLine?.split(' ')[1]), headers });
    };
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

function request(method: string, path: string, host: string, headers: Record<string, string>, body?: Buffer): Buffer {
  const head = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: keep-alive', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body) head.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body ?? Buffer.alloc(0)]);
}

/** Sends `first` then, on the same connection, a plain GET of `next`; returns both outcomes. */
async function sameConnection(origin: string, first: (host: string) => Buffer, next: string): Promise<[RawAnswer | string, RawAnswer | string]> {
  const url = new URL(origin);
  const socket = connect(Number(url.port), url.hostname);
  socket.on('error', () => undefined);
  try {
    const firstAnswer = readResponse(socket);
    socket.write(first(url.host));
    const a = await firstAnswer;
    if (typeof a === 'string') return [a, 'not sent'];
    if (a.headers['connection']?.toLowerCase() === 'close') {
      const closed = await readResponse(socket);
      return [a, closed === 'closed' ? 'closed as announced' : 'not closed although announced'];
    }
    const secondAnswer = readResponse(socket);
    socket.write(request('GET', next, url.host, {}));
    return [a, await secondAnswer];
  } finally {
    socket.destroy();
  }
}

const form = (size: number) => Buffer.from(`a=${'x'.repeat(size)}`);
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

describe('a refused body leaves the kept-alive connection usable', () => {
  const realm = '/auth/realms/public';
  const protocol = `${realm}/protocol/openid-connect`;
  it.each([
    ['token', `${protocol}/token`],
    ['revocation', `${protocol}/revoke`],
    ['introspection', `${protocol}/token/introspect`],
    ['PAR', `${protocol}/ext/par/request`],
    ['device authorization', `${protocol}/auth/device`],
    ['device code form', `${realm}/device`],
    ['logout', `${protocol}/logout`],
  ])('identity, %s: after a 2 MB form, the next request on the connection is answered', async (_name, path) => {
    const [first, second] = await sameConnection(identity.url, (host) => request('POST', path, host, FORM, form(OVERSIZED)), `${realm}/.well-known/openid-configuration`);
    expect(first).toMatchObject({ status: expect.any(Number) as number });
    expect((first as RawAnswer).status).toBeGreaterThanOrEqual(400);
    expect((first as RawAnswer).status).toBeLessThan(500);
    expect(second === 'closed as announced' || (second as RawAnswer).status === 200).toBe(true);
  });

  it('identity: after a malformed JSON body to a login form, the next request is answered', async () => {
    const [first, second] = await sameConnection(
      identity.url,
      (host) => request('POST', `${realm}/login-actions/nosuch/login`, host, { 'Content-Type': 'application/json' }, Buffer.from('{"a":')),
      `${realm}/.well-known/openid-configuration`,
    );
    expect((first as RawAnswer).status).toBeGreaterThanOrEqual(400);
    expect((first as RawAnswer).status).toBeLessThan(500);
    expect(second === 'closed as announced' || (second as RawAnswer).status === 200).toBe(true);
  });

  it.each([
    ['a 2 MB form', FORM, form(OVERSIZED)],
    ['a 2 MB JSON body', { 'Content-Type': 'application/json' }, Buffer.from(`{"secret":"${'x'.repeat(OVERSIZED)}"}`)],
    ['malformed JSON', { 'Content-Type': 'application/json' }, Buffer.from('{"secret":')],
  ])('secrets: after %s to share, the next request on the connection is answered', async (_name, headers, body) => {
    const [first, second] = await sameConnection(secrets.url, (host) => request('POST', '/api/v1/share', host, headers, body), '/api/v1/status');
    expect((first as RawAnswer).status).toBeGreaterThanOrEqual(400);
    expect((first as RawAnswer).status).toBeLessThan(500);
    expect(second === 'closed as announced' || (second as RawAnswer).status === 200).toBe(true);
  });
});
