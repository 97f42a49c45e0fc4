import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm start` and `npm test` run their last step (scripts/local.mjs, or the test suite) under
 * scripts/run.mjs. Stopped with SIGTERM (`kill`, a process manager, `timeout`) rather than Ctrl-C
 * in a terminal, which signals the whole process group, the launcher must pass the signal on:
 * otherwise it exits and leaves the services running with nobody to stop them.
 */
const foreground = pathToFileURL(join(process.cwd(), 'scripts', 'foreground.mjs')).href;
const child = `process.on('SIGTERM', () => { console.log('child stopping'); process.exit(3); }); console.log('child ready'); setInterval(() => {}, 1000);`;

it.each(['SIGTERM', 'SIGINT'] as const)('passes %s on to the running step and exits with its status', async (signal) => {
  const launcher = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { foreground } from ${JSON.stringify(foreground)}; foreground(process.execPath, ['-e', ${JSON.stringify(child.replace('SIGTERM', signal))}]);`,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  launcher.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  while (!out.includes('child ready')) await once(launcher.stdout, 'data');
  const exited = once(launcher, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  launcher.kill(signal);
  const [code] = await exited;
  expect(out).toContain('child stopping');
  expect(code).toBe(3);
});
