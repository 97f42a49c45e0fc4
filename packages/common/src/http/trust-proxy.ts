import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';

/**
 * Which peers may speak for the client in X-Forwarded-For and X-Forwarded-Proto (TRUST_PROXY),
 * in the forms Express's `trust proxy` setting takes:
 * - `false`: none; the client is the TCP peer (the default);
 * - a hop count `n`: the nearest `n` proxies, whatever their addresses;
 * - addresses and CIDRs (and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`): only peers
 *   there, each hop checked, so a client that reaches us directly cannot name its own IP.
 *
 * A bare `true` (Express: trust every hop) is refused: the client would choose the IP that the
 * per-IP limits count.
 */
export type TrustProxy = false | number | string[];

/** Decides, for each address on the way (0 = the TCP peer), whether it may speak for the one before. */
export type TrustFunction = (address: string, hop: number) => boolean;

const TRUE_REFUSED =
  'a bare "true" trusts any client\'s X-Forwarded-For, so anyone could choose the IP the per-IP limits count; ' +
  'set the addresses or CIDRs of your proxies instead (e.g. 10.0.0.0/8, or loopback), or how many proxies are in front (e.g. 1), or false';

/** The TRUST_PROXY key: `false` (default), a hop count, or a comma-separated list of addresses/CIDRs. */
export const trustProxy = () =>
  z
    .string()
    .default('false')
    .transform((raw, ctx): TrustProxy => {
      const value = raw.trim().toLowerCase();
      if (value === 'false' || value === 'no') return false;
      if (value === 'true' || value === 'yes') {
        ctx.addIssue({ code: 'custom', message: TRUE_REFUSED });
        return z.NEVER;
      }
      if (/^\d+$/.test(value)) return Number(value);
      const list = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      try {
        proxyaddr.compile(list);
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `${(err as Error).message}: expected false, a hop count, or addresses/CIDRs (or loopback, linklocal, uniquelocal), comma-separated`,
        });
        return z.NEVER;
      }
      return list.length === 0 ? false : list;
    });

/** The trust function of a TRUST_PROXY value, as Express compiles its `trust proxy` setting. */
export function trustFunction(value: TrustProxy): TrustFunction {
  if (value === false) return () => false;
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return proxyaddr.compile(value);
}

/**
 * The client's address and the protocol it used, as Express's `req.ip` and `req.protocol` would
 * read them under the same trust function: for code that sees the Node request without Express
 * (oidc-provider's Koa contexts).
 */
export function forwardedClient(req: IncomingMessage, trust: TrustFunction): { ip: string; protocol: 'http' | 'https' } {
  const ip = proxyaddr(req, trust);
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  if (encrypted) return { ip, protocol: 'https' };
  const peer = req.socket.remoteAddress ?? '';
  if (!trust(peer, 0)) return { ip, protocol: 'http' };
  const header = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().toLowerCase();
  return { ip, protocol: first === 'https' ? 'https' : 'http' };
}
