import { inBoundedBatches, periodic, type Logger } from '@hush/common';
import type { Config } from '../config.js';
import type { SweepRepository } from './sweep.repository.js';

export interface SweepSettings {
  /** Rows per statement (SWEEP_BATCH_SIZE). */
  batchSize: number;
  /** Seconds a secret request is kept after its link closed (RECEIPT_RETENTION). */
  receiptRetention: number;
}

/** The sweeper's settings, from the configuration. */
export const sweepSettings = (config: Pick<Config, 'SWEEP_BATCH_SIZE' | 'SWEEP_INTERVAL' | 'RECEIPT_RETENTION'>) => ({
  batchSize: config.SWEEP_BATCH_SIZE,
  intervalSeconds: config.SWEEP_INTERVAL,
  receiptRetention: config.RECEIPT_RETENTION,
});

export interface Swept {
  secrets: number;
  metadata: number;
  sealedKeys: number;
}

/**
 * One sweep: expired secrets, expired e-mail requests, receipts and secret requests past their
 * retention, zero-knowledge files never attached or never downloaded, each worked off in bounded batches (inBoundedBatches) until none is left; `signal`
 * stops it between two batches. Idempotent and safe from every replica at once.
 */
export async function sweep(repo: SweepRepository, settings: SweepSettings, signal?: AbortSignal): Promise<Swept> {
  let sealedKeys = 0;
  const secrets = await inBoundedBatches(
    async (limit) => {
      const batch = await repo.expireSecrets(limit);
      sealedKeys += batch.sealedKeys;
      return batch.secrets;
    },
    settings.batchSize,
    signal,
  );
  await inBoundedBatches((limit) => repo.expireOutbox(limit), settings.batchSize, signal);
  const metadata = await inBoundedBatches((limit) => repo.deleteReceipts(limit), settings.batchSize, signal);
  await inBoundedBatches((limit) => repo.deleteRequests(limit, settings.receiptRetention), settings.batchSize, signal);
  await inBoundedBatches((limit) => repo.deleteFiles(limit), settings.batchSize, signal);
  return { secrets, metadata, sealedKeys };
}

/**
 * Sweeps every `intervalSeconds` (30 s by default, so a row is gone within a minute of expiring,
 * or, after a backlog, as soon as the batches have worked it off). Runs never overlap in one
 * process; `stop()` ends the timer, and the run in progress after its current batch (it resolves
 * once that batch is done, before the caller closes the database).
 */
export function startSweeper(repo: SweepRepository, settings: SweepSettings & { intervalSeconds: number }, logger: Logger, onSwept: (expiredSecrets: number) => void = () => {}) {
  return periodic(
    settings.intervalSeconds * 1000,
    async (signal) => {
      const swept = await sweep(repo, settings, signal);
      onSwept(swept.secrets);
      if (swept.secrets + swept.metadata + swept.sealedKeys > 0) logger.info({ swept }, 'expired rows swept');
    },
    (err) => logger.error({ err }, 'sweep failed'),
  );
}
