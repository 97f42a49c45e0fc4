import { randomBytes } from 'node:crypto';
import { startMain } from './main-process.js';

/** A service that sends e-mail through packages/delivery, as its config test sees it. */
export interface DeliveryConfigSetup {
  service: 'identity' | 'secrets';
  /** The service's configuration schema's keys. */
  configKeys: string[];
  /** Its delivery keys (`deliveryKeys()` of @hush/delivery). */
  deliveryKeys: string[];
  /** Its config read from `env`, mapped to the relay's options. */
  deliveryOptionsOf: (env: NodeJS.ProcessEnv) => Record<string, unknown>;
}

/**
 * The behaviour both services share through @hush/delivery: they read its keys with its defaults,
 * and their entry point refuses queue mode without MAIL_SEALING_KEY, naming it (needs the build).
 */
export function itReadsTheDeliveryKeys({ service, configKeys, deliveryKeys, deliveryOptionsOf }: DeliveryConfigSetup): void {
  const masterKey = () => randomBytes(32).toString('hex');

  it('reads the e-mail delivery keys of packages/delivery, with their defaults', () => {
    expect(configKeys).toEqual(expect.arrayContaining(deliveryKeys));
    expect(deliveryOptionsOf({ MASTER_KEY: masterKey() })).toMatchObject({
      mode: 'queue',
      attempts: 8,
      backoffMs: 5000,
      relayIntervalMs: 1000,
      requeueAfterSeconds: 300,
      requeueLimit: 5,
    });
  });

  it('refuses to start in queue mode without MAIL_SEALING_KEY, naming it', async () => {
    const refused = startMain(service, { PATH: process.env['PATH'], MASTER_KEY: masterKey(), DELIVERY_MODE: 'queue' });
    expect(await refused.exited).toBe(1);
    expect(refused.stderr()).toMatch(/MAIL_SEALING_KEY: required with DELIVERY_MODE=queue/);
  });
}
