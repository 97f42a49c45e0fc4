import type { Logger } from '@hush/common';
import type { SecretsRepository } from './secrets.repository.js';

/**
 * Deletes expired rows every `intervalSeconds` (30 s by default, so a row is gone within a
 * minute of expiring). Correctness never depends on it: every read checks expires_at itself.
 * Runs never overlap in one process; across processes the DELETEs are idempotent.
 */
export function startSweeper(secrets: Pick<SecretsRepository, 'sweep'>, intervalSeconds: number, logger: Logger, onSwept: (expiredSecrets: number) => void = () => {}) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    secrets
      .sweep()
      .then((swept) => {
        onSwept(swept.secrets);
        if (swept.secrets + swept.metadata + swept.sealedKeys > 0) logger.info({ swept }, 'expired rows swept');
      })
      .catch((err: unknown) => logger.error({ err }, 'sweep failed'))
      .finally(() => {
        running = false;
      });
  }, intervalSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
