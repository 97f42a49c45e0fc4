import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm start` (scripts/local.mjs) runs the three services as children under scripts/supervise.mjs:
 * one that dies is started again after a growing delay and the launcher says so; one that keeps
 * dying stops the whole system with a line naming it, and the launcher exits 1. Never half a
 * system left running in silence. Here the launcher's part is played by a small script wired as
 * local.mjs wires it (children, stop-everything on give-up), with services that are tiny Node
 * processes and test-sized delays.
 */
const supervise = pathToFileURL(join(process.cwd(), 'scripts', 'supervise.mjs')).href;

function launcher(services: Record<string, string>, policy: { maxRestarts: number; windowMs: number; firstDelayMs: number }) {
  const script = `
import { spawn } from 'node:child_process';
import { restartPolicy, supervise } from ${JSON.stringify(supervise)};
const children = new Set();
let stopping = false;
const log = (name, line) => console.log('[' + name + '] ' + line);
function stopAll(code) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  const done = () => (children.size === 0 ? process.exit(code) : setTimeout(done, 20));
  done();
}
process.on('SIGTERM', () => stopAll(0));
const run = (name, code) => () =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    child.stdout.on('data', (d) => log(name, String(d).trim()));
    child.on('exit', (status) => (children.delete(child), resolve(status)));
  });
for (const [name, code] of Object.entries(${JSON.stringify(services)})) {
  const start = run(name, code);
  supervise(name, start(), start, {
    log,
    stopping: () => stopping,
    giveUp: (message) => (console.log('local: ' + message), stopAll(1)),
    policy: restartPolicy(${JSON.stringify(policy)}),
  });
}
`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  return {
    child,
    output: () => out,
    async waitFor(text: string) {
      while (!out.includes(text)) await once(child.stdout, 'data');
    },
  };
}

// A service that stays up until SIGTERM, saying so on the way out.
const steady = `console.log('up'); process.on('SIGTERM', () => { console.log('stopping'); process.exit(0); }); setInterval(() => {}, 1000);`;

it('restarts a service that died, after a delay, and says so; the others keep running', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'launcher-'));
  try {
    const marker = join(dir, 'died-once');
    // Dies on its first run only (the marker file remembers), then stays up.
    const fragile = `const fs = require('node:fs'); if (!fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, ''); process.exit(7); } ${steady}`;
    const l = launcher({ steady, fragile }, { maxRestarts: 3, windowMs: 10_000, firstDelayMs: 100 });
    await l.waitFor('[fragile] up');
    expect(l.output()).toMatch(/\[fragile\] exited \(7\) unexpectedly; restarting in 0\.1 s \(restart 1 of at most 3 within 10 s\)/);
    expect(l.output()).not.toContain('[steady] stopping');
    const exited = once(l.child, 'exit');
    l.child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
    expect(l.output()).toContain('[steady] stopping');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('stops everything with a clear message, and exits 1, when a service keeps dying', async () => {
  const l = launcher({ steady, broken: `process.exit(3)` }, { maxRestarts: 2, windowMs: 10_000, firstDelayMs: 50 });
  const [code] = (await once(l.child, 'exit')) as [number | null];
  const out = l.output();
  expect(out).toContain('[broken] exited (3) unexpectedly; restarting in 0.05 s (restart 1 of at most 2 within 10 s)');
  expect(out).toContain('[broken] exited (3) unexpectedly; restarting in 0.1 s (restart 2 of at most 2 within 10 s)');
  expect(out).toContain('local: broken exited (3) 3 times within 10 s: stopping everything');
  // The rest of the system was stopped, not left running.
  expect(out).toContain('[steady] stopping');
  expect(code).toBe(1);
});
