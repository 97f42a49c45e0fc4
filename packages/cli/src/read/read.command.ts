import { readFile } from 'node:fs/promises';
import { ZkApiError, zkInfo, zkReadWithKey, type ZkOpened } from '@hush/zk/client';
import { zkDecode, zkUnwrapKey, type Bytes } from '@hush/zk/format';
import { stringFlag, type Command, type CommandContext } from '../command.ts';
import { CliError, EXIT, talkingTo, usageError } from '../errors.ts';
import { sessionOf, withCredentials } from '../login/session.ts';
import { passphraseSource } from '../passphrase.ts';
import { forgetOpeningKey, keptRequests } from '../requests/opening-keys.ts';
import type { Settings } from '../settings.ts';
import { parseSecretLink, type SecretLink } from './link.ts';
import { checkWritable, saveFile } from './saved-file.ts';

/** The key that opens the secret: the link's, or for an answer to a request, unwrapped with an opening key. */
async function keyOf(ctx: CommandContext, link: SecretLink, wrapped: unknown): Promise<{ key: Bytes; openingKey?: string }> {
  if (link.key) return { key: link.key };
  if (typeof wrapped !== 'string') throw new CliError(EXIT.wrongKey, 'This link has no key (the part after #, which its sender has): nothing was read. Ask for the whole link.');
  const file = stringFlag(ctx, 'opening-key-file');
  const given = file === undefined ? [] : [(await readFile(file, 'utf8').catch(() => Promise.reject(usageError(`Cannot read the opening key file ${file}.`)))).trim()];
  for (const openingKey of [...given, ...(await keptRequests(ctx.settings)).map((r) => r.opening_key)]) {
    try {
      return { key: await zkUnwrapKey(openingKey, zkDecode(wrapped)), openingKey };
    } catch {
      // not this request's opening key
    }
  }
  throw new CliError(
    EXIT.wrongKey,
    'This is the answer to a request, and no opening key here opens it: give the one shown when the request was made (--opening-key-file FILE). Nothing was read.',
  );
}

/** Credentials go only to the service hush is set to (HUSH_URL): a link may name any server. */
function credentialsFor(settings: Settings, base: string, info: Record<string, unknown>) {
  if (info['requested'] !== true && info['recipient_only'] !== true) return undefined;
  if (new URL(base).origin !== new URL(settings.secretsUrl).origin) {
    throw new CliError(
      EXIT.forbidden,
      `Only a signed-in account can read this secret, and hush sends its credentials to ${settings.secretsUrl} alone: read it with --url ${base} (signed in there).`,
    );
  }
  return sessionOf(settings);
}

/** Reads once; with a passphrase, asks again after a wrong one while the service says attempts are left. */
async function readOpened(ctx: CommandContext, link: SecretLink, key: Bytes, info: Record<string, unknown>): Promise<ZkOpened> {
  const session = credentialsFor(ctx.settings, link.base, info);
  const readWith = (passphrase: string | undefined) =>
    session
      ? withCredentials(session, (authorization) => zkReadWithKey({ baseUrl: link.base, ...(authorization ? { authorization } : {}) }, link.secretKey, key, passphrase))
      : zkReadWithKey({ baseUrl: link.base }, link.secretKey, key, passphrase);
  if (session && (await session.authorization()) === undefined) {
    throw new CliError(
      EXIT.login,
      `This secret is for ${info['recipient_only'] === true ? String(info['recipient']) : 'the account that asked for it'}: sign in as them first (hush login).`,
    );
  }
  if (info['passphrase_required'] !== true) return readWith(undefined);
  const source = passphraseSource(ctx.values, ctx.env);
  for (;;) {
    const passphrase = await source.next();
    try {
      return await readWith(passphrase);
    } catch (err) {
      const again = err instanceof ZkApiError && err.code === 'passphrase_incorrect' && source.canRetry && /\d+ attempts? left/.test(err.message);
      if (!again) throw err;
      ctx.note(`Wrong passphrase. ${err.message}.\n`);
    }
  }
}

/**
 * `hush read`: the reading steps of docs/zero-knowledge.md §7 with @hush/zk. Looks first (which
 * consumes nothing), checks the output can be written, proves the key, and decrypts here.
 */
export const readCommand: Command = {
  summary: "open a secret's link, once: a text to stdout, a file under its name",
  usage: `Usage: hush read LINK [-o PATH] [options]

Reads the secret behind LINK, once, and decrypts it on this machine: a text goes to stdout, a file
is saved under its stored name in the current folder (never replacing a file: "name (1).ext").

  -o, --output PATH       write it there instead: a file path (replaced), a folder (the stored name
                          in it), or - for stdout
  --passphrase-file F     the secret's passphrase, from file F; else HUSH_PASSPHRASE; else hush asks
                          at the terminal (again after a wrong one, while attempts are left)
  --opening-key-file F    for an answer to a request made elsewhere: the opening key shown then
  --url URL               where you are signed in (default: HUSH_URL, else http://localhost:3000);
                          credentials are sent for a recipient-only secret or an answer, and only
                          to this service

A link without its key (nothing after #) is the answer to a request: hush opens it with the opening
key it kept when you ran hush request.`,
  options: {
    output: { type: 'string', short: 'o' },
    'passphrase-file': { type: 'string' },
    'opening-key-file': { type: 'string' },
  },
  async run(ctx) {
    const [text, extra] = ctx.positionals;
    if (text === undefined || extra !== undefined) throw usageError('hush read takes one LINK.');
    const link = parseSecretLink(text);
    const output = stringFlag(ctx, 'output');
    await checkWritable(output);
    const { opened, openingKey } = await talkingTo(link.base, async () => {
      const info = await zkInfo({ baseUrl: link.base }, link.secretKey);
      const { key, openingKey } = await keyOf(ctx, link, info['wrapped_key']);
      return { opened: await readOpened(ctx, link, key, info), openingKey };
    });
    if (openingKey !== undefined) await forgetOpeningKey(ctx.settings, openingKey);
    if (opened.text !== undefined) {
      if (output === undefined || output === '-' || opened.file !== undefined) ctx.out(opened.text.endsWith('\n') || !process.stdout.isTTY ? opened.text : `${opened.text}\n`);
      else ctx.note(`Saved the text in ${await saveFile(output, 'secret.txt', new TextEncoder().encode(opened.text))}.\n`);
    }
    if (opened.file !== undefined) {
      if (output === '-') ctx.out(opened.file.bytes);
      else ctx.note(`Saved ${await saveFile(output, opened.file.name, opened.file.bytes)} (${opened.file.bytes.length} bytes).\n`);
    }
  },
};
