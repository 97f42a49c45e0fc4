import { periodic } from '@hush/common';
import { accountMailReady } from '../account-links/index.js';
import { sweepOldEvents } from '../events/index.js';
import { sweepExpired } from '../oidc/adapter.repository.js';
import type { Deps } from './deps.js';

/**
 * What runs beside the requests: the first key load and provider build, the client cache's
 * listener, the events recorder, the e-mail relay, the key-reload timer and the sweeps; and their
 * orderly end.
 */
export function lifecycle(deps: Pick<Deps, 'config' | 'db' | 'logger' | 'context' | 'cache' | 'events' | 'mail' | 'protocol'>) {
  const { config, db, logger, context, cache, events, mail, protocol } = deps;
  const sweepEvents = (signal?: AbortSignal) => sweepOldEvents(events, context.eventsRepository, config.SWEEP_BATCH_SIZE, signal);
  /** Expired protocol artifacts, events past their retention, spent account-action links: each in bounded batches. */
  const sweepAll = async (signal: AbortSignal) => {
    for (const [what, sweepOne] of [
      ['sweep', () => sweepExpired(db, config.SWEEP_BATCH_SIZE, signal)],
      ['events retention sweep', () => sweepEvents(signal)],
      ['action token sweep', () => context.actionTokens.sweep(config.SWEEP_BATCH_SIZE, signal)],
    ] as const) {
      await sweepOne().catch((err: unknown) => logger.error({ err }, `${what} failed`));
    }
  };
  let timers: NodeJS.Timeout[] = [];
  let sweeping: { stop(): Promise<void> } | undefined;
  return {
    async start(): Promise<void> {
      // Made now, so that no sign-in waits for it and no flood of them can keep it from being made.
      await context.passwords.dummyHash();
      await context.signingKeys.ensureActive();
      await protocol.start();
      await cache?.start();
      await events.start();
      if (accountMailReady(config)) await mail.start();
      else logger.warn('MAIL_SEALING_KEY is not set: account e-mails (password reset, execute-actions, address confirmation) wait in the outbox');
      timers = [setInterval(() => void protocol.reloadKeys().catch((err) => logger.error({ err }, 'key reload failed')), config.KEY_RELOAD_INTERVAL * 1000)];
      timers.forEach((t) => t.unref());
      sweeping = periodic(60_000, sweepAll, () => undefined);
    },
    async close(): Promise<void> {
      timers.forEach(clearInterval);
      timers = [];
      const swept = sweeping?.stop();
      cache?.stop();
      // Before the caller closes the database: buffered events are written, none lost; the relay's
      // statuses in flight are recorded.
      await Promise.all([events.close(), mail.close(), swept]);
      // The service's Redis connection stays the caller's to close; this ends the revocation retries.
      await Promise.all([context.revocations.close(), context.passwords.close()]);
    },
    reloadKeys: (): Promise<boolean> => protocol.reloadKeys(),
    sweep: async (): Promise<number> => (await sweepExpired(db, config.SWEEP_BATCH_SIZE)) + (await sweepEvents()),
  };
}
