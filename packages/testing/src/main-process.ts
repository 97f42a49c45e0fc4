import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './servers.js';

/** A service started through its real entry point, as compose and Kubernetes start it. */
export interface MainProcess {
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with its exit code once it has exited (null if a signal ended it). */
  exited: Promise<number | null>;
  /** Waits until GET `${managementUrl}/healthz` answers 200; throws with its stderr if it exits first. */
  listening(managementUrl: string, timeoutMs?: number): Promise<void>;
  /** SIGTERM (graceful shutdown), then its exit code. */
  stop(): Promise<number | null>;
}

/**
 * The Node flags of `services/<service>`'s start script (the tracing hook, heap sizing), as its
 * image's CMD has them; run from the service's folder, where `--import=` resolves.
 */
export function startScriptFlags(service: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(process.cwd(), 'services', service, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const words = (scripts?.start ?? '').split(/\s+/);
  return words[0] === 'node' ? words.slice(1).filter((w) => w.startsWith('--')) : [];
}

/**
 * `node <start flags> dist/src/main.js` of `services/<service>` (built by `tsc -b`), with exactly
 * `env` (add PATH yourself): stdout ignored, stderr kept.
 */
export function startMain(service: string, env: NodeJS.ProcessEnv): MainProcess {
  const child = spawn(process.execPath, [...startScriptFlags(service), 'dist/src/main.js'], {
    cwd: join(process.cwd(), 'services', service),
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    stderr: () => stderr,
    exited,
    async listening(managementUrl, timeoutMs = 20_000) {
      await eventually(async () => {
        if (child.exitCode !== null) throw new Error(`${service} exited ${child.exitCode}: ${stderr}`);
        const res = await fetch(`${managementUrl}/healthz`).catch(() => undefined);
        return res?.status === 200 ? true : undefined;
      }, timeoutMs);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
