import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { freePort } from './ports.js';

// The ports a test tells a child process to listen on. A port the kernel picked (listen(0)) and
// released could be handed by the kernel to any other socket before the child listens, which then
// fails with EADDRINUSE.

const [firstEphemeral] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);

it('hands out ports below the kernel ephemeral range, never the same one twice in a row', async () => {
  const ports = [];
  for (let i = 0; i < 20; i += 1) ports.push(await freePort());
  for (const port of ports) expect(port).toBeLessThan(firstEphemeral ?? 0);
  expect(new Set(ports).size).toBe(ports.length);
});

it('passes over a port something already listens on', async () => {
  const taken: Server[] = [];
  try {
    // Hold the next ports of this worker's slice, as a child started by an earlier file would.
    const first = await freePort();
    for (let port = first + 1; port < first + 4; port += 1) {
      const server = createServer().listen(port);
      await once(server, 'listening');
      taken.push(server);
    }
    const port = await freePort();
    expect(port).not.toBe(first);
    expect(taken.map((s) => (s.address() as { port: number }).port)).not.toContain(port);
    const server = createServer().listen(port);
    await once(server, 'listening');
    taken.push(server);
  } finally {
    await Promise.all(taken.map((s) => new Promise((r) => s.close(r))));
  }
});
