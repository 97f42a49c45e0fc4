import type { ParseArgsOptionsConfig } from 'node:util';
import type { Settings } from './settings.ts';

/** What a command is given: its parsed flags and arguments, the settings, and where to write. */
export interface CommandContext {
  settings: Settings;
  values: Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;
  positionals: readonly string[];
  env: NodeJS.ProcessEnv;
  /** stdout: the command's result (a link, a secret), nothing else, so it can be piped. */
  out: (text: string | Uint8Array) => void;
  /** stderr: what a person reads (instructions, receipts, warnings). */
  note: (text: string) => void;
}

export interface Command {
  /** One line for `hush --help`. */
  summary: string;
  /** `hush <command> --help`. */
  usage: string;
  options: ParseArgsOptionsConfig;
  run(ctx: CommandContext): Promise<void>;
}

/** A string flag's value, if given. */
export const stringFlag = (ctx: Pick<CommandContext, 'values'>, name: string): string | undefined => {
  const value = ctx.values[name];
  return typeof value === 'string' ? value : undefined;
};
