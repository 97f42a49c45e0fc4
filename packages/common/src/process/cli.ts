import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import { ConfigError } from '../config/config.js';
import { cliExitCode, DomainError, InvalidInputError } from '../http/errors.js';

/** What one CLI command printed and its exit code; the process wrapper (`cliMain`) writes it out. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type CliValues = Record<string, string | boolean | string[] | undefined>;

/** A required argument or option the operator left out: their mistake, so exit 1, no stack. */
export class MissingArgumentError extends DomainError {
  constructor(what: string) {
    super(400, 'invalid_input', `${what} is required`);
  }
}

/** An option's value when it is a string (parseArgs gives booleans and arrays too). */
export const stringArg = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The argument, or a `MissingArgumentError` naming it. */
export function requiredArg(v: string | undefined, what: string): string {
  if (!v) throw new MissingArgumentError(what);
  return v;
}

/** A command's handler: its positionals (after the command words) and options; returns what to print. */
export type CliCommand<C> = (ctx: C, positionals: string[], values: CliValues) => Promise<unknown>;

/**
 * A command whose input is validated by a zod schema before it runs: the schema reads the
 * command's options under their own names (`--redirect-uri` as `'redirect-uri'`) and its
 * positionals under the names given in `positionals`, in order, and gives the use-case its input.
 * The first problem found is the operator's mistake: `InvalidInputError` with the issue's message
 * (exit 1), so the schema words its messages for an operator ("username is required").
 */
export function cliCommand<C, S extends z.ZodType>(schema: S, positionals: readonly string[], run: (ctx: C, input: z.output<S>) => Promise<unknown>): CliCommand<C> {
  return (ctx, args, values) => {
    const named = Object.fromEntries(positionals.map((name, i) => [name, args[i]]));
    const parsed = schema.safeParse({ ...values, ...named });
    if (!parsed.success) throw new InvalidInputError(parsed.error.issues[0]?.message ?? 'invalid arguments');
    return run(ctx, parsed.data);
  };
}

export interface CliProgram<C> {
  usage: string;
  /** Options beyond --json and --help. */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Keyed by one or two words ("migrate", "users create"). */
  commands: Record<string, CliCommand<C>>;
  /** Opens what a command runs against; `close` runs after it, whether it failed or not. */
  open(env: NodeJS.ProcessEnv): { ctx: C; close: () => Promise<void> };
}

/**
 * Runs one command of an admin CLI; never exits the process, so tests drive the CLI exactly as a
 * shell does. Usage errors exit 2; the operator's mistakes (any `DomainError`: a missing argument,
 * an unknown name) exit 1 with `error: <message>` on stderr (and `{ "error": code, "message" }` on
 * stdout with --json), no stack; anything else is a fault and is thrown to the caller.
 */
export async function runCommand<C>(program: CliProgram<C>, argv: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const { usage, commands } = program;
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, ...program.options },
    });
  } catch (err) {
    return { code: 2, stdout: '', stderr: `${(err as Error).message}\n\n${usage}\n` };
  }
  const { positionals } = parsed;
  const values = parsed.values as CliValues;
  const twoWord = `${positionals[0] ?? ''} ${positionals[1] ?? ''}`;
  const [name, rest] = commands[twoWord] ? [twoWord, positionals.slice(2)] : [positionals[0] ?? '', positionals.slice(1)];
  const handler = commands[name];
  if (values['help'] || !handler) {
    return { code: values['help'] ? 0 : 2, stdout: values['help'] ? `${usage}\n` : '', stderr: values['help'] ? '' : `${usage}\n` };
  }

  const { ctx, close } = program.open(env);
  try {
    const result = await handler(ctx, rest, values);
    return { code: 0, stdout: values['json'] ? `${JSON.stringify(result, null, 2)}\n` : human(result), stderr: '' };
  } catch (err) {
    if (err instanceof DomainError) return operatorError(err, values['json'] === true);
    throw err;
  } finally {
    await close();
  }
}

/** The one mapping of a `DomainError` to CLI output. */
function operatorError(err: DomainError, json: boolean): CliResult {
  const out = { error: err.code, message: err.message };
  return { code: cliExitCode(err), stdout: json ? `${JSON.stringify(out)}\n` : '', stderr: `error: ${err.message}\n` };
}

/** `key: value` lines, a blank line between rows; dates in ISO 8601, objects as JSON. */
function human(result: unknown): string {
  const rows = Array.isArray(result) ? result : [result];
  return `${rows
    .map((row) =>
      Object.entries(row as Record<string, unknown>)
        .map(([k, v]) => `${k}: ${v instanceof Date ? v.toISOString() : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
        .join('\n'),
    )
    .join('\n\n')}\n`;
}

/** The bin script: runs the command with the process's arguments and sets the exit code. */
export async function cliMain(bin: string, run: (argv: string[]) => Promise<CliResult>): Promise<void> {
  try {
    const result = await run(process.argv.slice(2));
    process.stdout.write(result.stdout);
    process.stderr.write(result.stderr);
    process.exitCode = result.code;
  } catch (err) {
    // A bad configuration is the operator's to fix (1); anything else is a fault (70, EX_SOFTWARE).
    const config = err instanceof ConfigError;
    process.stderr.write(config ? `${bin}: ${err.message}\n` : `${bin}: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = config ? 1 : cliExitCode(err);
  }
}
