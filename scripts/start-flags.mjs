// The Node flags a service starts with: the ones between `node` and its entry point in the
// service's `start` script (services/<name>/package.json), the one place they are written.
// scripts/local.mjs and the bench/ scripts start the services with them, as the Dockerfiles do
// (test/infra checks the Dockerfiles' CMD against the start scripts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `root`: a checkout; `service`: identity, secrets or mailer. */
export function startFlags(root, service) {
  const { scripts } = JSON.parse(readFileSync(join(root, 'services', service, 'package.json'), 'utf8'));
  const words = (scripts?.start ?? '').split(/\s+/).filter(Boolean);
  return words[0] === 'node' ? words.slice(1).filter((w) => w.startsWith('--')) : [];
}
