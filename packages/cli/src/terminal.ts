import { openSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { ReadStream, WriteStream } from 'node:tty';
import { CliError, EXIT } from './errors.ts';

/**
 * The person at the keyboard: prompts that do not echo what is typed, on the controlling terminal
 * (/dev/tty), so they work while stdin and stdout carry data (`hush share - < file | pbcopy`).
 */
interface Terminal {
  input: ReadStream;
  output: WriteStream;
  close(): void;
}

function openTerminal(): Terminal | undefined {
  if (process.platform === 'win32') {
    if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
    const input = process.stdin as ReadStream;
    return { input, output: process.stderr, close: () => input.pause() };
  }
  try {
    const input = new ReadStream(openSync('/dev/tty', 'r'));
    const output = new WriteStream(openSync('/dev/tty', 'w'));
    return {
      input,
      output,
      close: () => {
        input.destroy();
        output.destroy();
      },
    };
  } catch {
    return undefined; // no controlling terminal: a pipeline, a service, CI
  }
}

/** Whether hush can ask the person something. */
export function hasTerminal(): boolean {
  const terminal = openTerminal();
  terminal?.close();
  return terminal !== undefined;
}

/**
 * Asks for a value without echoing it: Enter ends it, Backspace deletes a character, Ctrl-U the
 * line, Ctrl-C (or Ctrl-D on an empty line) interrupts. Escape sequences (arrow keys) are ignored.
 */
export async function askHidden(prompt: string): Promise<string> {
  const terminal = openTerminal();
  if (!terminal) throw new CliError(EXIT.usage, 'hush needs a terminal to ask for this.');
  const { input, output } = terminal;
  // No echo before the prompt shows: what is typed once it shows is never on the screen.
  input.setRawMode(true);
  output.write(prompt);
  const decoder = new StringDecoder('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let value = '';
      const onData = (chunk: Buffer) => {
        for (const ch of decoder.write(chunk)) {
          if (ch === '\r' || ch === '\n') return resolve(value);
          if (ch === '\u0003' || (ch === '\u0004' && value === '')) return reject(new CliError(EXIT.interrupted, 'Interrupted.'));
          if (ch === '\u001b') break; // the rest of the chunk is an escape sequence
          if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
          else if (ch === '\u0015') value = '';
          else if (ch >= ' ') value += ch;
        }
        return undefined;
      };
      input.on('data', onData);
    });
  } finally {
    input.setRawMode(false);
    output.write('\n');
    terminal.close();
  }
}

/** At most this much is read from stdin: more than any secret the service takes. */
const STDIN_LIMIT = 64 * 1024 * 1024;

export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > STDIN_LIMIT) throw new CliError(EXIT.limit, `stdin holds more than ${STDIN_LIMIT / 1024 / 1024} MiB: that is more than a secret can be.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Text as a person typed or piped it: UTF-8 (anything else is refused), without the one line break a pipe ends with. */
export function textOf(bytes: Buffer, what: string): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CliError(EXIT.usage, `${what} is not UTF-8 text: share it as a file (hush share FILE).`);
  }
  return text.replace(/\r?\n$/, '');
}
