import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '../logging/logger.js';
import { requestLog, requestLogger } from './request-log.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'request-log-test', level: 'debug', destination }) };
}

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** Serves one handler behind requestLog and answers the response's X-Request-Id. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, logger: ReturnType<typeof createLogger>): Promise<string> {
  const log = requestLog(logger);
  server = createServer((req, res) => log(Object.assign(req, { originalUrl: req.url ?? '/' }), res, () => handler(req, res)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('requestLogger', () => {
  it("writes the request's id (the caller's X-Request-Id, when sane) on every line logged while handling it", async () => {
    const { lines, logger } = capture();
    const url = await serve((_req, res) => {
      const log = requestLogger(logger, res);
      log.warn('first');
      log.info({ extra: 1 }, 'second');
      res.end();
    }, logger);
    const res = await fetch(url, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.filter((l) => l['msg'] !== 'request')).toEqual([
      expect.objectContaining({ msg: 'first', reqId: 'abc-123' }),
      expect.objectContaining({ msg: 'second', reqId: 'abc-123', extra: 1 }),
    ]);
  });

  it('without a request id (requestLog did not run) is the logger itself', () => {
    const { logger } = capture();
    expect(requestLogger(logger, { getHeader: () => undefined } as never)).toBe(logger);
  });
});
