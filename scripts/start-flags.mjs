// The Node flags a service starts with: the ones between `node` and its entry point in the
// service's `start` script (services/<name>/package.json), the one place they are written.
// scripts/local.mjs and the bench/ scripts start the services with them, as the Dockerfiles do
// (test/infra checks the Dockerfiles' CMD against the start scripts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `root`: a checkout; `service`: identity, secrets or mailer. A module named by `--import=` (the
 * tracing hook, @hush/telemetry/register) is resolved from the service's folder, as the image
 * resolves it from its own: the caller may start the service from anywhere.
 */
export function startFlags(root, service) {
  const dir = resolve(root, 'services', service);
  const { scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const words = (scripts?.start ?? '').split(/\s+/).filter(Boolean);
  const flags = words[0] === 'node' ? words.slice(1).filter((w) => w.startsWith('--')) : [];
  const require = createRequire(join(dir, 'package.json'));
  return flags.map((flag) => {
    const module = /^--import=([^./].*)$/.exec(flag)?.[1];
    return module ? `--import=${pathToFileURL(require.resolve(module)).href}` : flag;
  });
}
