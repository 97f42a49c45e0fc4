import { OrganizationsRepository } from './accounts/organizations.repository.js';
import { UsersRepository } from './accounts/users.repository.js';
import { UsersService } from './accounts/users.js';
import { ApisRepository } from './apis/apis.repository.js';
import { ClientsRepository } from './clients/clients.repository.js';
import { ClientsService } from './clients/clients.js';
import type { Config } from './config.js';
import type { Db } from './db/knex.js';
import { KeysRepository } from './keys/keys.repository.js';
import { SigningKeys } from './keys/keys.js';
import { KeyRotation } from './keys/rotation.js';

/** The repositories and use-cases, wired once; shared by the HTTP app and the admin CLI. */
export function createContext(config: Config, db: Db) {
  const organizations = new OrganizationsRepository(db);
  const users = new UsersRepository(db);
  const apis = new ApisRepository(db);
  const clients = new ClientsRepository(db);
  const keysRepository = new KeysRepository(db);
  const signingKeys = new SigningKeys(keysRepository, config.MASTER_KEY);
  return {
    config,
    db,
    organizations,
    users,
    apis,
    clients,
    keysRepository,
    signingKeys,
    usersService: new UsersService(users, organizations, config.PASSWORD_HASH_COST),
    clientsService: new ClientsService(clients, apis, organizations),
    rotation: new KeyRotation(signingKeys, keysRepository, apis, config.KEY_RELOAD_INTERVAL),
  };
}

export type Context = ReturnType<typeof createContext>;
export type { Infrastructure } from '@hush/common';
