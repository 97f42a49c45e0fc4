import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { randomInt } from 'node:crypto';

/** How many ports each Jest worker may hand out, and how many workers have slices of their own. */
const SLICE = 500;
const SLICES = 16;

/**
 * The first port the kernel may pick by itself (for `listen(0)` and for the local end of an
 * outgoing connection): Linux's ip_local_port_range, or its default where it cannot be read.
 */
function firstEphemeralPort(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = Number(low);
    if (Number.isInteger(port) && port > 0) return port;
  } catch {
    // not Linux: fall through to the IANA default
  }
  return 49_152;
}

/** Whether a listener on every address, as the services listen, can take `port` right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

let next = randomInt(SLICE);

/**
 * A TCP port free right now, for a child process that must be told where to listen (it is closed
 * again before this returns). A port the kernel hands out by itself could be taken between this
 * answer and the child's listen, by any `listen(0)` or outgoing connection of the machine; these
 * ports come from below the kernel's ephemeral range instead, where only this function picks, and
 * each Jest worker picks from a slice of its own, so two test files never get the same one.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env['JEST_WORKER_ID'] ?? 0) % SLICES;
  const first = firstEphemeralPort() - SLICES * SLICE + worker * SLICE;
  if (first < 1024) throw new Error('the kernel ephemeral port range leaves no room below it for test ports');
  for (let tries = 0; tries < SLICE; tries += 1) {
    const port = first + (next++ % SLICE);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${first}–${first + SLICE - 1}`);
}
