import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import pkg from '../package.json' with { type: 'json' };
import type { Command } from './command.ts';
import { CliError, EXIT, explain, usageError } from './errors.ts';
import { loginCommand } from './login/login.command.ts';
import { logoutCommand } from './login/logout.command.ts';
import { refusePassphraseInArguments } from './passphrase.ts';
import { readCommand } from './read/read.command.ts';
import { answersCommand } from './requests/answers.command.ts';
import { requestCommand } from './requests/request.command.ts';
import { DEFAULT_AUTH_URL, DEFAULT_SECRETS_URL, readSettings, type Settings } from './settings.ts';
import { shareCommand } from './share/share.command.ts';

const COMMANDS: Readonly<Record<string, Command>> = {
  share: shareCommand,
  read: readCommand,
  login: loginCommand,
  logout: logoutCommand,
  request: requestCommand,
  answers: answersCommand,
};

/** Flags every command takes. */
const GLOBAL_OPTIONS: ParseArgsOptionsConfig = {
  url: { type: 'string' },
  'auth-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const USAGE = `hush ${pkg.version}: Hush's zero-knowledge secrets from a terminal, encrypted and decrypted on this machine

Usage: hush <command> [options]

${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)}${c.summary}`)
  .join('\n')}

  hush <command> --help   the command's options

Servers: --url / HUSH_URL, the secrets service (default ${DEFAULT_SECRETS_URL}); --auth-url /
HUSH_AUTH_URL, identity (default ${DEFAULT_AUTH_URL}). Passphrases are never taken on the command
line: hush asks for them, or reads --passphrase-file or HUSH_PASSPHRASE. Exit codes: docs/cli.md.`;

const write = (stream: NodeJS.WriteStream) => (text: string | Uint8Array) => void stream.write(text);

/** The parsed command line, or a usage error that says what was wrong. */
function parse(command: Command, args: string[]) {
  try {
    return parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageError(`${err instanceof Error ? err.message : String(err)} (see hush ${args.length ? '<command> ' : ''}--help)`);
  }
}

/** Runs one command line; the exit code. Never throws: every failure is told on stderr. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const out = write(process.stdout);
  const note = write(process.stderr);
  let settings: Settings | undefined;
  try {
    const [name, ...args] = argv;
    if (name === undefined) {
      note(`${USAGE}\n`);
      return EXIT.usage;
    }
    if (name === '--help' || name === '-h' || name === 'help') {
      out(`${USAGE}\n`);
      return EXIT.ok;
    }
    if (name === '--version' || name === '-v') {
      out(`${pkg.version}\n`);
      return EXIT.ok;
    }
    const command = COMMANDS[name];
    if (!command) throw usageError(`hush has no command ${JSON.stringify(name)}: ${Object.keys(COMMANDS).join(', ')} (hush --help).`);
    refusePassphraseInArguments(args);
    const { values, positionals } = parse(command, args);
    if (values['help']) {
      out(`${command.usage}\n`);
      return EXIT.ok;
    }
    settings = readSettings({ url: values['url'] as string | undefined, 'auth-url': values['auth-url'] as string | undefined }, env);
    await command.run({ settings, values, positionals, env, out, note });
    return EXIT.ok;
  } catch (err) {
    const failure = err instanceof CliError ? err : explain(err, settings?.secretsUrl ?? DEFAULT_SECRETS_URL);
    note(`hush: ${failure.message}\n`);
    return failure.exitCode;
  }
}
