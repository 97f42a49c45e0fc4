import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { startMain } from './main-process.js';
import { freePort } from './ports.js';

/** Where one attempt of the test runs the service: a new, empty database and two free ports. */
export interface EntryPointPlace {
  databaseUrl: string;
  port: number;
  managementPort: number;
}

/** How a service's entry point is run in an `EntryPointPlace`. */
export interface EntryPointSetup {
  /** The whole environment of `main`, with this MASTER_KEY. */
  env(masterKey: string): NodeJS.ProcessEnv;
  /** Applies the migrations as an operator would (the CLI's migrate), with this MASTER_KEY. */
  migrate(masterKey: string): Promise<void>;
}

/**
 * Through the service's real entry point: started with the MASTER_KEY its database was set up
 * with, it runs, and again after a restart; started with another, it exits 1 with a message (no
 * stack) that names MASTER_KEY and says what to do, and shows neither key. `service` is the folder
 * under services/.
 */
export function itRefusesTheDatabaseOfAnotherMasterKey(service: string, setup: (place: EntryPointPlace) => EntryPointSetup): void {
  // A database and ports per attempt: a retry starts clean, not on the database the first attempt set up.
  const databases: TestDatabase[] = [];
  afterAll(() => Promise.all(databases.map((d) => d.drop())));

  it('starts with the MASTER_KEY its database was set up with, and refuses another one, naming MASTER_KEY', async () => {
    const database = await createTestDatabase(`${service}_master_key`);
    databases.push(database);
    const [port, managementPort] = [await freePort(), await freePort()];
    const s = setup({ databaseUrl: database.url, port, managementPort });
    const managementUrl = `http://127.0.0.1:${managementPort}`;
    const original = randomBytes(32).toString('hex');
    const other = randomBytes(32).toString('hex');
    await s.migrate(original);

    const first = startMain(service, s.env(original));
    await first.listening(managementUrl);
    expect(await first.stop()).toBe(0);

    const refused = startMain(service, s.env(other));
    expect(await refused.exited).toBe(1);
    const stderr = refused.stderr();
    expect(stderr.startsWith(`${service}: `)).toBe(true);
    expect(stderr).toMatch(/MASTER_KEY:? .*(not the key this database was set up with|was set up with another MASTER_KEY)/);
    expect(stderr).toMatch(/Set MASTER_KEY \(or MASTER_KEY_FILE\) to the key it was set up with, from your key backup/);
    for (const key of [original, other]) expect(stderr).not.toContain(key);
    expect(stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace

    const again = startMain(service, s.env(original));
    await again.listening(managementUrl);
    expect(await again.stop()).toBe(0);
  });
}
