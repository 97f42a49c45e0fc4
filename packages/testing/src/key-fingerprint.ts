import { randomBytes } from 'node:crypto';
import { startMain } from './main-process.js';

/** A service's new, empty database (one per attempt of the test) and how its entry point is run against it. */
export interface EntryPointSetup {
  /** The folder under services/. */
  service: string;
  managementUrl: string;
  /** The whole environment of `main`, with this MASTER_KEY. */
  env(masterKey: string): NodeJS.ProcessEnv;
  /** Applies the migrations as an operator would (the CLI's migrate), with this MASTER_KEY. */
  migrate(masterKey: string): Promise<void>;
}

/**
 * Through the service's real entry point: started with the MASTER_KEY its database was set up
 * with, it runs, and again after a restart; started with another, it exits 1 with a message (no
 * stack) that names MASTER_KEY and says what to do, and shows neither key.
 */
export function itRefusesTheDatabaseOfAnotherMasterKey(setup: () => Promise<EntryPointSetup>): void {
  it('starts with the MASTER_KEY its database was set up with, and refuses another one, naming MASTER_KEY', async () => {
    const s = await setup();
    const original = randomBytes(32).toString('hex');
    const other = randomBytes(32).toString('hex');
    await s.migrate(original);

    const first = startMain(s.service, s.env(original));
    await first.listening(s.managementUrl);
    expect(await first.stop()).toBe(0);

    const refused = startMain(s.service, s.env(other));
    expect(await refused.exited).toBe(1);
    const stderr = refused.stderr();
    expect(stderr.startsWith(`${s.service}: `)).toBe(true);
    expect(stderr).toMatch(/MASTER_KEY:? .*(not the key this database was set up with|was set up with another MASTER_KEY)/);
    expect(stderr).toMatch(/Set MASTER_KEY \(or MASTER_KEY_FILE\) to the key it was set up with, from your key backup/);
    for (const key of [original, other]) expect(stderr).not.toContain(key);
    expect(stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    const again = startMain(s.service, s.env(original));
    await again.listening(s.managementUrl);
    expect(await again.stop()).toBe(0);
  });
}
