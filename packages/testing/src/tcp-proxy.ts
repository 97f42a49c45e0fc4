import { once } from 'node:events';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import request from 'supertest';

/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis, SMTP) that a test can cut or stall,
 * to show what a service does when that dependency goes away, while the real server keeps
 * running for the other test files. `via(url)` rewrites a connection URL to go through it.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private stalled = false;
  private readonly host: string;
  private readonly targetPort: number;
  /** The proxy's port on 127.0.0.1; kept across stop() and start(). */
  port = 0;
  /** Connections accepted since the last start(): whether anything (re)connected meanwhile. */
  accepted = 0;

  /** `target`: a URL (`redis://127.0.0.1:6379`, `postgres://...@host:5432/db`) or `host:port`. */
  constructor(target: string, defaultPort = 0) {
    const url = new URL(target.includes('://') ? target : `tcp://${target}`);
    this.host = url.hostname;
    this.targetPort = Number(url.port) || defaultPort || ({ 'redis:': 6379, 'postgres:': 5432, 'postgresql:': 5432 } as Record<string, number>)[url.protocol] || 0;
  }

  /** Listens (again, on the same port after stop()) and forwards every new connection. */
  async start(): Promise<void> {
    this.stalled = false;
    this.accepted = 0;
    this.server = createServer((client) => this.accept(client));
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** `url` with its host and port replaced by the proxy's (user, database, query kept). */
  via(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  /** Refuses new connections and drops the open ones, as a stopped server would. */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }

  /** Keeps every connection open but forwards nothing any more, as a hung server would. */
  stall(): void {
    this.stalled = true;
    for (const s of this.sockets) {
      s.unpipe();
      s.pause();
    }
  }

  private accept(client: Socket): void {
    this.accepted++;
    this.track(client);
    if (this.stalled) {
      client.pause();
      return;
    }
    const upstream = new Socket();
    this.track(upstream);
    upstream.connect(this.targetPort, this.host);
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }
}

/** How a test takes a dependency away: `stop` refuses connections, `stall` leaves them hanging. */
export type Outage = 'stop' | 'stall';

/**
 * The two ways a dependency goes away (stopped, hung), as rows for `it.each`: [title, proxy, its key
 * in the health bodies and the `dependency` label, outage]. `name` as the title says it ("Redis").
 */
export function outagesOf(name: string, proxy: TcpProxy, dependency: string): [string, TcpProxy, string, Outage][] {
  return [
    [`${name} is stopped`, proxy, dependency, 'stop'],
    [`${name} hangs`, proxy, dependency, 'stall'],
  ];
}

/** Runs `probe` while the proxied dependency is out, then restores the proxy (same port). */
export async function duringOutage<T>(proxy: TcpProxy, outage: Outage, probe: () => Promise<T>): Promise<T> {
  if (outage === 'stop') await proxy.stop();
  else proxy.stall();
  try {
    return await probe();
  } finally {
    await proxy.stop();
    await proxy.start();
  }
}

/** GET `${baseUrl}/readyz`: status and JSON body. */
export async function probeReadiness(baseUrl: string): Promise<{ status: number; body: Record<string, string> }> {
  const res = await request(baseUrl).get('/readyz');
  return { status: res.status, body: res.body as Record<string, string> };
}
