import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/** One command Redis ran, as MONITOR shows it: its name (lower case), its arguments, and who sent it (`address:port`, or `lua`). */
export interface MonitoredCommand {
  command: string;
  args: string[];
  from: string;
}

/**
 * Redis's MONITOR read from a plain socket, for tests that check which commands a request makes.
 *
 * Not ioredis's `monitor()`: it switches the connection to monitor mode only once the MONITOR
 * reply's promise has settled, so a command shown in the same read as that reply is taken for the
 * reply to a command never sent, and the connection fails with "Command queue state error" (on a
 * Redis that other tests keep busy, that happens often). Here every line after `+OK` is a command.
 *
 * Redis shows commands in the order it runs them, so `sync()` (a marker command sent on a second
 * connection, then waited for) means every command run before it has been seen.
 */
export class RedisMonitor {
  /** Every command seen since the monitor started, markers left out. */
  readonly seen: MonitoredCommand[] = [];
  private readonly markerPrefix = `redis-monitor-marker:${randomBytes(6).toString('hex')}:`;
  private markers = 0;
  private readonly waiting = new Map<string, () => void>();
  private pending = '';

  private constructor(
    private readonly monitor: Socket,
    private readonly marker: Socket,
  ) {}

  /** Connects twice to `url` (the monitor and the marker connection) and starts monitoring. */
  static async start(url: string): Promise<RedisMonitor> {
    const [monitor, marker] = await Promise.all([open(url), open(url)]);
    const redis = new RedisMonitor(monitor, marker);
    // The marker connection's replies are not read; its socket must still drain.
    marker.resume();
    await redis.begin();
    return redis;
  }

  /** Resolves once every command Redis ran before this call has been seen. */
  async sync(): Promise<void> {
    const key = `${this.markerPrefix}${++this.markers}`;
    const shown = new Promise<void>((resolve) => this.waiting.set(key, resolve));
    this.marker.write(command('EXISTS', key));
    await shown;
  }

  /** The commands Redis ran while `act` ran (from before it starts to after it ends). */
  async during(act: () => Promise<unknown>): Promise<MonitoredCommand[]> {
    await this.sync();
    const from = this.seen.length;
    await act();
    await this.sync();
    return this.seen.slice(from);
  }

  close(): void {
    this.monitor.destroy();
    this.marker.destroy();
  }

  private async begin(): Promise<void> {
    this.monitor.setEncoding('utf8');
    const started = new Promise<void>((resolve, reject) => {
      let answered = false;
      this.monitor.on('data', (chunk: string) => {
        this.pending += chunk;
        let end: number;
        while ((end = this.pending.indexOf('\r\n')) >= 0) {
          const line = this.pending.slice(0, end);
          this.pending = this.pending.slice(end + 2);
          // The first line answers MONITOR; every line after it is a command.
          if (answered) this.shown(line);
          else if (line === '+OK') {
            answered = true;
            resolve();
          } else reject(new Error(`Redis refused the monitor: ${line}`));
        }
      });
      this.monitor.once('error', reject);
    });
    this.monitor.write(command('MONITOR'));
    await started;
  }

  private shown(line: string): void {
    const parsed = parseMonitorLine(line);
    if (!parsed) return;
    const marker = parsed.args.find((arg) => arg.startsWith(this.markerPrefix));
    if (marker === undefined) this.seen.push(parsed);
    else this.waiting.get(marker)?.();
  }
}

async function open(url: string): Promise<Socket> {
  const { hostname, port, password, username } = new URL(url);
  const socket = connect(Number(port || 6379), hostname || '127.0.0.1');
  await once(socket, 'connect');
  if (password) {
    socket.write(command('AUTH', ...(username ? [decodeURIComponent(username)] : []), decodeURIComponent(password)));
    const [reply] = (await once(socket, 'data')) as [Buffer];
    if (!reply.toString().startsWith('+OK')) throw new Error(`Redis refused the password: ${reply.toString().trim()}`);
  }
  return socket;
}

/** A command in RESP. */
function command(...parts: string[]): string {
  return `*${parts.length}\r\n${parts.map((part) => `$${Buffer.byteLength(part)}\r\n${part}\r\n`).join('')}`;
}

/** `+1700000000.123456 [0 127.0.0.1:50000] "mget" "a" "b"`: Redis quotes each argument and escapes what is not printable. */
export function parseMonitorLine(line: string): MonitoredCommand | undefined {
  const match = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] (.*)$/.exec(line);
  if (!match) return undefined;
  const [, from = '', rest = ''] = match;
  const args: string[] = [];
  let i = 0;
  while (i < rest.length) {
    if (rest[i] !== '"') {
      i++;
      continue;
    }
    let arg = '';
    for (i++; i < rest.length && rest[i] !== '"'; i++) {
      const c = rest[i];
      if (c !== '\\') {
        arg += c;
        continue;
      }
      const next = rest[++i];
      if (next === 'x') {
        arg += String.fromCharCode(parseInt(rest.slice(i + 1, i + 3), 16));
        i += 2;
      } else arg += ESCAPES[next ?? ''] ?? next ?? '';
    }
    i++;
    args.push(arg);
  }
  const [name = '', ...commandArgs] = args;
  return { command: name.toLowerCase(), args: commandArgs, from };
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' };
