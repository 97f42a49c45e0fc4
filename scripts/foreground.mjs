// Runs the launcher's last, long-running step (scripts/local.mjs, or the test suite) as a child
// whose exit status becomes the launcher's own, and passes on the signals that stop it. Ctrl-C in
// a terminal signals the whole process group, child included; `kill`, `timeout` or a process
// manager signal only the launcher, which must then stop the child (its services) too, rather
// than exit and leave them running with nobody to stop them.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function foreground(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options });
  for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    process.stderr.write(`${command}: ${err.message}\n`);
    process.exit(1);
  });
  // A child ended by a signal exits as a shell reports it: 128 + the signal's number.
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}
