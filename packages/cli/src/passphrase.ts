import { readFile } from 'node:fs/promises';
import { stringFlag, type CommandContext } from './command.ts';
import { CliError, EXIT, usageError } from './errors.ts';
import { askHidden, hasTerminal } from './terminal.ts';

/**
 * Where a passphrase comes from. Never from the command line itself: every user of the machine
 * sees a process's arguments (ps, /proc), so `--passphrase` only says "ask me" and a script gives
 * the value in a file (`--passphrase-file`) or in HUSH_PASSPHRASE.
 */
export type PassphraseFlags = CommandContext['values'];

const fileFlag = (flags: PassphraseFlags) => stringFlag({ values: flags }, 'passphrase-file');

/** `--passphrase=VALUE` is refused before anything else happens, with the ways that are safe. */
export function refusePassphraseInArguments(args: readonly string[]): void {
  if (args.some((a) => /^--passphrase=/.test(a))) {
    throw usageError(
      'hush takes no passphrase on its command line, where other users of this machine can see it (ps). Type it at the prompt (--passphrase), or give --passphrase-file FILE or HUSH_PASSPHRASE.',
    );
  }
}

async function fromFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw usageError(`Cannot read the passphrase file ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  const passphrase = text.replace(/\r?\n$/, '');
  if (passphrase === '') throw usageError(`The passphrase file ${path} is empty.`);
  return passphrase;
}

/** The passphrase a new secret is protected with: none unless --passphrase or --passphrase-file. Asked twice at the terminal. */
export async function newPassphrase(flags: PassphraseFlags, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const file = fileFlag(flags);
  if (file !== undefined) return fromFile(file);
  if (flags['passphrase'] !== true) return undefined;
  if (env['HUSH_PASSPHRASE']) return env['HUSH_PASSPHRASE'];
  if (!hasTerminal()) throw usageError('--passphrase asks for it at a terminal, and there is none: give --passphrase-file FILE or HUSH_PASSPHRASE.');
  const passphrase = await askHidden('Passphrase (not shown): ');
  if (passphrase === '') throw usageError('The passphrase is empty.');
  if ((await askHidden('The same passphrase again: ')) !== passphrase) throw usageError('The two passphrases differ: nothing was shared.');
  return passphrase;
}

/**
 * How a secret's passphrase is found when it has one: the file or HUSH_PASSPHRASE (one try), else
 * the terminal (asked again after a wrong one, while attempts are left).
 */
export interface PassphraseSource {
  /** The next passphrase to try. */
  next(): Promise<string>;
  /** Whether another may be asked for after a wrong one. */
  canRetry: boolean;
}

export function passphraseSource(flags: PassphraseFlags, env: NodeJS.ProcessEnv): PassphraseSource {
  const file = fileFlag(flags);
  if (file !== undefined) return { next: () => fromFile(file), canRetry: false };
  const given = env['HUSH_PASSPHRASE'];
  if (given) return { next: async () => given, canRetry: false };
  if (!hasTerminal()) {
    return {
      next: () =>
        Promise.reject(new CliError(EXIT.passphrase, 'This secret needs its passphrase: run hush read at a terminal, or give --passphrase-file FILE or HUSH_PASSPHRASE.')),
      canRetry: false,
    };
  }
  return { next: () => askHidden('Passphrase (not shown): '), canRetry: true };
}
