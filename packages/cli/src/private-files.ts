import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * hush's own files (tokens, opening keys): JSON readable by the user only, 0600 in a 0700 folder,
 * each replaced whole (written aside, then renamed over), so a crash or a concurrent hush never
 * leaves half a file.
 */

export async function readPrivateJson<T>(path: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as T;
}

export async function writePrivateJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const aside = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await open(aside, 'wx', 0o600);
  try {
    await file.writeFile(`${JSON.stringify(value, null, 2)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  // The mode given to open() is masked by the umask; this one is not.
  await chmod(aside, 0o600);
  await rename(aside, path);
}

/** A lock older than this was left by a hush that died: it is taken over. */
const STALE_LOCK_MS = 30_000;

/**
 * Runs `work` while holding `${path}.lock`, so two hush processes do not both refresh one login:
 * identity rotates refresh tokens and ends the grant when a replaced one is used again.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const lock = `${path}.lock`;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const held = await stat(lock).catch(() => undefined);
      if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
      else await sleep(50);
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
