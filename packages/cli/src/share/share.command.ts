import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { zkShare, type ZkContent } from '@hush/zk/client';
import { stringFlag, type Command } from '../command.ts';
import { parseDuration } from '../durations.ts';
import { callApi } from '../api.ts';
import { usageError } from '../errors.ts';
import { newPassphrase } from '../passphrase.ts';
import { qrText } from '../qr.ts';
import { askHidden, readStdin, textOf } from '../terminal.ts';

/** The secret to share: a file with its name, text piped in, or text typed at a hidden prompt. */
async function contentOf(source: string | undefined): Promise<ZkContent> {
  if (source !== undefined && source !== '-') {
    const info = await stat(source).catch(() => undefined);
    if (!info?.isFile()) throw usageError(`${source} is not a file hush can read.`);
    return { file: { name: basename(source), type: '', bytes: await readFile(source) } };
  }
  const text = source === undefined && process.stdin.isTTY ? await askHidden('Secret (not shown; Enter ends it): ') : textOf(await readStdin(), 'stdin');
  if (text === '') throw usageError('There is nothing to share: the secret is empty.');
  return { text };
}

/**
 * `hush share`: encrypts here (docs/zero-knowledge.md: a fresh key, the envelope, a file's
 * records) with @hush/zk, the code the browser runs, and prints the link with its key. The
 * service receives ciphertext, the key's verifier and the passphrase's, never the key or the text.
 */
export const shareCommand: Command = {
  summary: 'encrypt a text or a file here and print its one-time link',
  usage: `Usage: hush share [FILE | -] [options]

Encrypts the secret on this machine with a fresh key that only the link holds (after its #), stores
the ciphertext at the secrets service and prints the link, which opens the secret once.

  FILE                 a file: its content, name and size go encrypted (up to the service's
                       FILE_MAX_BYTES, 10 MiB by default; files need a login or an API token)
  -                    text from stdin (one final line break is dropped); without FILE at a
                       terminal, hush asks for the text without showing it
  --ttl DURATION       how long the secret lives: 3600, 90s, 30m, 12h, 7d (default: the service's,
                       7 days)
  --passphrase         protect it with a passphrase too, typed at the terminal (twice, not shown),
                       or taken from HUSH_PASSPHRASE
  --passphrase-file F  protect it with the passphrase in file F (its content, less a final line break)
  --recipient EMAIL    e-mail EMAIL the link, without its key (give them the key another way)
  --recipient-only     only EMAIL's account can read it (signed in with that verified address)
  --qr                 also draw the link as a QR code, on stderr
  --url URL            the secrets service (default: HUSH_URL, else http://localhost:3000)

The link goes to stdout alone; the receipt's address and notes go to stderr.`,
  options: {
    ttl: { type: 'string' },
    passphrase: { type: 'boolean' },
    'passphrase-file': { type: 'string' },
    recipient: { type: 'string' },
    'recipient-only': { type: 'boolean' },
    qr: { type: 'boolean' },
  },
  async run(ctx) {
    const { settings, positionals, values, out, note } = ctx;
    if (positionals.length > 1) throw usageError('hush shares one FILE at a time.');
    const recipient = stringFlag(ctx, 'recipient');
    if (values['recipient-only'] && recipient === undefined) throw usageError('--recipient-only needs --recipient EMAIL: the one person who may read it.');
    const ttlFlag = stringFlag(ctx, 'ttl');
    const ttl = ttlFlag === undefined ? undefined : parseDuration(ttlFlag, '--ttl');
    const content = await contentOf(positionals[0]);
    const passphrase = await newPassphrase(values, ctx.env);
    const shared = await callApi(settings, (service) =>
      zkShare(service, content, {
        ...(passphrase !== undefined ? { passphrase } : {}),
        ...(ttl !== undefined ? { ttl } : {}),
        ...(recipient !== undefined ? { recipient } : {}),
        ...(values['recipient-only'] ? { recipient_only: true } : {}),
      }),
    );
    out(`${shared.link}\n`);
    note(`Its receipt (keep it to yourself): ${settings.secretsUrl}/private/${shared.metadataKey}\n`);
    if (recipient !== undefined) note(`${recipient} is e-mailed the link without its key: give them the key (after #), or the whole link, another way.\n`);
    if (values['qr']) note(await qrText(shared.link, process.stderr.isTTY));
  },
};
