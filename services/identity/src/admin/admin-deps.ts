import type { Context } from '../context.js';

/** What the admin API's handlers reach: the shared context (context.ts), as the CLI. */
export type AdminDeps = Pick<Context, 'clients' | 'apis' | 'organizations' | 'revocations' | 'secretSeal' | 'users' | 'roles' | 'sessions' | 'passwordCost' | 'signingKeys'>;
