import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve } from 'node:path';
import { CliError, EXIT } from '../errors.ts';

/**
 * Where a secret's file goes: `-o PATH` (a file, replaced; a folder, the stored name in it; `-`,
 * stdout), else its stored name in the current folder, never replacing a file there.
 */

/** A stored name as a file name here: its last path part, without control characters. */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'secret-file' : clean;
}

/** `name`, or `name (1).ext`, `name (2).ext`, ... : the first that does not exist in `dir`. */
async function freePath(dir: string, name: string): Promise<string> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 0; ; n++) {
    const path = join(dir, n === 0 ? name : `${stem} (${n})${ext}`);
    if (!(await stat(path).catch(() => undefined))) return path;
  }
}

/**
 * Checks, before the secret is consumed, that its content can be written where it will go: a
 * one-time secret read and then lost to a typo in a path is gone for good.
 */
export async function checkWritable(output: string | undefined): Promise<void> {
  if (output === '-') return;
  const target = resolve(output ?? '.');
  const info = await stat(target).catch(() => undefined);
  const dir = info?.isDirectory() ? target : dirname(target);
  try {
    await access(dir, constants.W_OK);
  } catch {
    throw new CliError(EXIT.usage, `Cannot write in ${dir}: nothing was read.`);
  }
}

/** Writes a file's content (readable by its owner only); the path written. */
export async function saveFile(output: string | undefined, storedName: string, bytes: Uint8Array): Promise<string> {
  const name = safeFileName(storedName);
  const info = output === undefined ? undefined : await stat(output).catch(() => undefined);
  const path = output === undefined ? await freePath('.', name) : info?.isDirectory() ? await freePath(output, name) : output;
  await writeFile(path, bytes, { mode: 0o600, flag: output === undefined || info?.isDirectory() ? 'wx' : 'w' });
  return path;
}
