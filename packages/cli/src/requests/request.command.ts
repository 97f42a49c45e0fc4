import { zkRequest, type ZkRequestOptions } from '@hush/zk/client';
import { stringFlag, type Command } from '../command.ts';
import { parseDuration } from '../durations.ts';
import { callApi } from '../api.ts';
import { usageError } from '../errors.ts';
import { qrText } from '../qr.ts';
import { keepRequest, requestsPath } from './opening-keys.ts';

const POLICIES = ['optional', 'required', 'none'] as const;

/**
 * `hush request`: asks someone for a secret, zero-knowledge (docs/zero-knowledge.md §5): the key
 * pair is made here, the service gets the public key, and the opening key stays in hush's folder;
 * whoever answers encrypts for it, in their browser.
 */
export const requestCommand: Command = {
  summary: 'ask someone for a secret: print a link they answer through, encrypted for you',
  usage: `Usage: hush request LABEL [options]

Makes a request link: whoever opens it can send you one secret, encrypted in their browser for a
key pair made here. Its opening key stays in hush's folder (readable by you only, never sent); hush
read opens the answer with it, and hush answers lists the answers waiting. Needs a login (hush
login) or HUSH_API_TOKEN.

  LABEL                        what the secret is for, shown to the person asked
  --ttl DURATION               how long the link stays open (3600, 30m, 12h, 7d)
  --secret-ttl DURATION        how long the secret sent through it lives
  --recipient EMAIL            e-mail the link to EMAIL
  --passphrase-policy POLICY   optional (default), required or none: the sender's passphrase
  --qr                         also draw the link as a QR code, on stderr
  --url URL                    the secrets service (default: HUSH_URL, else http://localhost:3000)`,
  options: {
    ttl: { type: 'string' },
    'secret-ttl': { type: 'string' },
    recipient: { type: 'string' },
    'passphrase-policy': { type: 'string' },
    qr: { type: 'boolean' },
  },
  async run(ctx) {
    const { settings, positionals, values, out, note } = ctx;
    const [label, extra] = positionals;
    if (label === undefined || extra !== undefined) throw usageError('hush request takes one LABEL (quote it when it has spaces).');
    const policy = stringFlag(ctx, 'passphrase-policy');
    if (policy !== undefined && !(POLICIES as readonly string[]).includes(policy)) throw usageError(`--passphrase-policy is one of ${POLICIES.join(', ')}.`);
    const ttl = stringFlag(ctx, 'ttl');
    const secretTtl = stringFlag(ctx, 'secret-ttl');
    const recipient = stringFlag(ctx, 'recipient');
    const options: ZkRequestOptions = {
      label,
      ...(ttl !== undefined ? { ttl: parseDuration(ttl, '--ttl') } : {}),
      ...(secretTtl !== undefined ? { secret_ttl: parseDuration(secretTtl, '--secret-ttl') } : {}),
      ...(recipient !== undefined ? { recipient } : {}),
      ...(policy !== undefined ? { passphrase_policy: policy as ZkRequestOptions['passphrase_policy'] } : {}),
    };
    const { request, openingKey } = await callApi(settings, (service) => zkRequest(service, options), 'A request is made by an account');
    const link = String(request['link']);
    await keepRequest(settings, { id: String(request['id']), label, link, opening_key: openingKey, created: Math.floor(Date.now() / 1000) });
    out(`${link}\n`);
    note(`Its opening key is kept in ${requestsPath(settings)}. Once it is answered: hush answers, then hush read the answer's link.\n`);
    if (values['qr']) note(await qrText(link, process.stderr.isTTY));
  },
};
