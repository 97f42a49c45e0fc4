import type { ClientsRepository } from './clients.repository.js';
import type { ClientCache } from './client-cache.js';

/** The repository's methods that change a client, each taking the client id first. */
const CHANGES = new Set<string | symbol>(['create', 'update', 'setSecret', 'setSecretHash', 'delete']);

/**
 * The clients repository as this process's writers use it (the admin API): every change also
 * drops the client from this process's cache once written, so the very next request here sees it;
 * other replicas learn of it by NOTIFY (client-cache.ts).
 */
export function invalidatingLocally(repository: ClientsRepository, cache: Pick<ClientCache, 'forget'> | undefined): ClientsRepository {
  if (!cache) return repository;
  return new Proxy(repository, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!CHANGES.has(property)) return method.bind(target);
      return async function changed(...args: unknown[]) {
        try {
          return await method.apply(target, args);
        } finally {
          const first = args[0];
          const clientId = typeof first === 'string' ? first : (first as { clientId?: string } | undefined)?.clientId;
          if (clientId) cache.forget(clientId);
        }
      };
    },
  });
}
