import type { Client } from 'oidc-provider';

const cache = new WeakMap<Client, Readonly<Record<string, unknown>>>();

/**
 * `Client#metadata()` rebuilds the whole metadata object (snake-casing every key) on each call,
 * and the token endpoint reads it several times per request. oidc-provider keeps one Client
 * instance per distinct set of properties (a changed client is a new instance), so the result
 * can be kept for the life of the instance.
 */
export function clientMetadata(client: Client): Readonly<Record<string, unknown>> {
  let meta = cache.get(client);
  if (!meta) {
    meta = Object.freeze(client.metadata());
    cache.set(client, meta);
  }
  return meta;
}
