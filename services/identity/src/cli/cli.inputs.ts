import { SECRETS_API_MOUNT } from '@hush/contracts';
import { z } from 'zod';
import type { CreateClientInput } from '../clients/index.js';

/**
 * The admin CLI's input, as zod schemas over a command's options and named positionals (see
 * `cliCommand` in @hush/common): each turns what the operator typed into the use-case's input.
 * They check the shape only (present, a list, a number); the rules (password length, known
 * scopes, grant types) are the use-cases', which the HTTP surfaces share.
 */

/** A required argument or option: `<what> is required` when absent or empty. */
const required = (what: string) => z.string({ error: `${what} is required` }).min(1, `${what} is required`);
const optional = z.string().optional();
/** Names given comma- or space-separated, or by repeating the option: one list. */
const names = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) =>
    [v ?? []]
      .flat()
      .flatMap((s) => s.split(/[,\s]+/))
      .filter(Boolean),
  );
const flag = z
  .boolean()
  .optional()
  .transform((v) => v === true);

export const bootstrapInput = z.object({ 'secrets-audience': optional, 'secrets-url': optional });

/** What `bootstrap` reads from the environment besides the service's configuration (each also as `<NAME>_FILE`). */
export const bootstrapEnv = z.object({
  /** The audience of the secrets API it registers (`--secrets-audience` comes first). */
  SECRETS_API_AUDIENCE: z.string().min(1).default(`http://localhost:3000${SECRETS_API_MOUNT}`),
  /** The secrets web app's public origin (`--secrets-url` comes first); default: the audience without /api/v1. */
  SECRETS_BASE_URL: z.string().min(1).optional(),
  /** The web app's client secret; unset: a new client gets a generated one. */
  SECRETS_WEB_CLIENT_SECRET: z.string().optional(),
  /** The bootstrap admin client's (hush-admin) secret; unset: a new client gets a generated one, printed once. */
  ADMIN_CLIENT_SECRET: z.string().optional(),
});

export const orgsCreateInput = z.object({ name: required('organization name') });

export const usersCreateInput = z
  .object({ username: required('username'), password: optional, email: optional, 'email-verified': z.boolean().optional(), name: optional, org: optional })
  .transform(({ org, 'email-verified': emailVerified, ...user }) => ({ ...user, emailVerified, organization: org }));

export const usersSetPasswordInput = z.object({ username: required('username'), password: required('--password') });

export const apisCreateInput = z
  .object({
    identifier: required('API identifier'),
    name: optional,
    scopes: names,
    ttl: z.coerce.number({ error: '--ttl must be a number of seconds' }).optional(),
  })
  .transform(({ ttl, ...api }) => ({ ...api, accessTokenTtl: ttl }));

export const clientsCreateInput = z
  .object({
    id: optional,
    name: required('--name'),
    grants: names,
    scopes: names,
    'redirect-uri': names,
    'post-logout-redirect-uri': names,
    'web-origin': names,
    org: optional,
    public: flag,
    'signing-alg': optional,
    'pkce-method': optional,
    'consent-required': flag,
  })
  .transform((v): CreateClientInput => ({
    clientId: v.id,
    name: v.name,
    grantTypes: v.grants,
    scopes: v.scopes,
    redirectUris: v['redirect-uri'],
    postLogoutRedirectUris: v['post-logout-redirect-uri'],
    webOrigins: v['web-origin'],
    organization: v.org,
    public: v.public,
    signingAlg: v['signing-alg'],
    pkceMethod: v['pkce-method'],
    consentRequired: v['consent-required'],
  }));

export const clientIdInput = z.object({ clientId: required('client id') });

export const keysRetireInput = z.object({ force: flag });

/** `rewrap --batch-size N`: rows per transaction, 500 unless given. */
export const rewrapInput = z.object({
  'batch-size': z.coerce
    .number({ error: '--batch-size must be a whole number from 1 to 10000' })
    .int('--batch-size must be a whole number from 1 to 10000')
    .min(1, '--batch-size must be a whole number from 1 to 10000')
    .max(10_000, '--batch-size must be a whole number from 1 to 10000')
    .default(500),
});

export const rolesCreateInput = z.object({ name: required('role name'), description: optional });

/** `roles grant|revoke <role>... --user U | --client C`: realm-management roles by their names, realm roles otherwise. */
export const rolesGrantInput = z
  .object({ roles: names, user: optional, client: optional })
  .refine((v) => v.roles.length > 0, 'name at least one role')
  .refine((v) => (v.user === undefined) !== (v.client === undefined), 'give exactly one of --user or --client');

export const usernameInput = z.object({ username: required('username') });

export const orgsMemberInput = z.object({ org: required('organization'), username: required('username') });

/** `clients update <client_id>`: only what is given changes. */
export const clientsUpdateInput = z.object({
  clientId: required('client id'),
  name: optional,
  grants: z.union([z.string(), z.array(z.string())]).optional(),
  scopes: z.union([z.string(), z.array(z.string())]).optional(),
  'redirect-uri': z.union([z.string(), z.array(z.string())]).optional(),
  'web-origin': z.union([z.string(), z.array(z.string())]).optional(),
  enable: flag,
  disable: flag,
});

/** Turns a repeatable option into its list (comma- or space-separated too); undefined when not given. */
export const listOption = (v: string | string[] | undefined): string[] | undefined =>
  v === undefined
    ? undefined
    : [v]
        .flat()
        .flatMap((s) => s.split(/[,\s]+/))
        .filter(Boolean);
