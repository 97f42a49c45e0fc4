import { ALL_SECRETS_SCOPES } from '@hush/contracts';
import { cliCommand, loadConfig, runCommand, type CliCommand, type CliResult } from '@hush/common';
import { endAccountSessions } from '../sessions/index.js';
import { ensureAdminClient } from '../admin-api/index.js';
import { createRealmRole, REALM, REALM_MANAGEMENT, REALM_MANAGEMENT_ROLES, resolveRoles } from '../roles/index.js';
import { readConfig } from '../config.js';
import { createContext, type Context } from '../context.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import {
  apisCreateInput,
  bootstrapEnv,
  bootstrapInput,
  clientIdInput,
  clientsUpdateInput,
  listOption,
  clientsCreateInput,
  keysRetireInput,
  rewrapInput,
  orgsCreateInput,
  orgsMemberInput,
  rolesCreateInput,
  rolesGrantInput,
  usernameInput,
  usersCreateInput,
  usersSetPasswordInput,
} from './cli.inputs.js';
import { createUser, deleteUser, serviceAccountUser, setUserPassword, updateUser } from '../users/index.js';
import { addMember, removeMember } from '../organizations/index.js';
import { createClient, deleteClient, ensureWebClient, readClientSecret, rotateClientSecret, updateClient } from '../clients/index.js';
import { createApi } from '../apis/index.js';
import { addNextKey, promoteNextKey, retireKeys, rotateKeysStep } from '../keys/index.js';
import { rewrapAll } from './master-key-rewrap.js';
import { ensureHandoverClient } from '../handover/index.js';
import { createDb, migrateLatest } from '../db/index.js';

export const USAGE = `Usage: hush-identity <command> [options] [--json]

  migrate                                   apply migrations, create the first signing key
  bootstrap [--secrets-audience URL] [--secrets-url URL]
                                            migrate, register the secrets API and its scopes, the
                                            secrets web app's client (hush-secrets-web), and the
                                            first administrator: client hush-admin, realm-admin
                                            (its secret printed once, or ADMIN_CLIENT_SECRET)
  orgs create <name> | orgs list
  orgs add-member <org> <username> | orgs remove-member <org> <username>
  users create <username> [--password P] [--email E [--email-verified]] [--name N] [--org ORG]
                                            (no --password: one is generated and printed once)
  users set-password <username> --password P
  users list
  users disable <username> | users enable <username>
                                            disabling ends its sessions and refresh tokens at once
  users delete <username>
  users logout <username>                   ends its sessions and refresh tokens at once
  roles list                                realm roles and realm-management roles
  roles create <name> [--description D]     a realm role
  roles grant <role,...> --user U | --client C
  roles revoke <role,...> --user U | --client C
                                            realm-management roles (realm-admin, manage-clients,
                                            view-clients, manage-users, view-users, view-events,
                                            ...) or realm roles; --client: its service account
  apis create <identifier> --scopes a,b [--name N] [--ttl SECONDS]
  apis list
  clients create --name N --grants g1,g2 --scopes s1,s2 [--id ID] [--redirect-uri U]...
                 [--post-logout-redirect-uri U]... [--web-origin O]... [--org ORG] [--public]
                 [--signing-alg RS256|ES256] [--pkce-method S256] [--consent-required]
                                            grants: client_credentials, authorization_code,
                                            implicit, refresh_token,
                                            urn:ietf:params:oauth:grant-type:device_code;
                                            prints the secret once. web origins (CORS, session
                                            iframe): origins, or + for the redirect URIs' (the
                                            default); --signing-alg: its tokens' signature
                                            algorithm (default: DEFAULT_SIGNING_ALG);
                                            --pkce-method S256: require PKCE (public clients
                                            always need it); --consent-required: people are
                                            asked (once) before it gets their data
  clients list
  clients rotate-secret <client_id>         prints the new secret; the old one stops working
  clients secret <client_id>                reads the secret back (CLIENT_SECRET_READBACK)
  clients update <client_id> [--name N] [--grants g1,g2] [--scopes s1,s2] [--redirect-uri U]...
                 [--web-origin O]... [--enable | --disable]
                                            only what is given changes
  clients delete <client_id>                its secret and all its tokens stop working at once
                                            (access tokens: announced through Redis, ADR 10)
  keys list
  keys rotate                               one safe step: add next keys (RS256, ES256), or promote
                                            them, retire old
  keys add-next | keys promote | keys retire [--force]
  rewrap [--batch-size N]                   move everything sealed under MASTER_KEYS_PREVIOUS under
                                            MASTER_KEY (resumable; progress on stderr); then the
                                            previous keys can be removed (docs/deploy.md)

Environment: DATABASE_URL, MASTER_KEY (or MASTER_KEY_FILE), MASTER_KEYS_PREVIOUS; bootstrap also reads SECRETS_API_AUDIENCE,
SECRETS_BASE_URL, SECRETS_WEB_CLIENT_SECRET and ADMIN_CLIENT_SECRET (or _FILE); see .env.example.`;

/**
 * What a command runs against: the context, and the environment the CLI was given (never process.env).
 * The CLI acts as the operator, not for a caller: whoever runs it holds DATABASE_URL and MASTER_KEY,
 * so holds everything already, and there is no administrator whose roles the admin API's
 * no-takeover rule (admin-api/admin-authority.ts) could compare with a principal's.
 */
type CliContext = Context & { env: NodeJS.ProcessEnv };

const commands: Record<string, CliCommand<CliContext>> = {
  migrate: async (ctx) => {
    const applied = await migrateLatest(ctx.db);
    await ctx.signingKeys.ensureActive();
    return { migrations: applied };
  },
  bootstrap: cliCommand(bootstrapInput, [], async (ctx: CliContext, input) => {
    const applied = await migrateLatest(ctx.db);
    await ctx.signingKeys.ensureActive();
    const env = loadConfig(bootstrapEnv, ctx.env);
    const audience = input['secrets-audience'] ?? env.SECRETS_API_AUDIENCE;
    const existing = await ctx.apis.findByIdentifier(audience);
    const api = existing ?? (await createApi(ctx, { identifier: audience, name: 'Hush secrets API', scopes: [...ALL_SECRETS_SCOPES], accessTokenTtl: 300 }));
    const webUrl = input['secrets-url'] ?? env.SECRETS_BASE_URL ?? audience.replace(/\/api\/v1\/?$/, '');
    const web = await ensureWebClient(ctx, webUrl, env.SECRETS_WEB_CLIENT_SECRET);
    const admin = await ensureAdminClient(ctx, env.ADMIN_CLIENT_SECRET);
    const handover = await ensureHandoverClient(ctx, ctx.config, [...ALL_SECRETS_SCOPES]);
    return {
      migrations: applied,
      api: { identifier: api.identifier, scopes: api.scopes },
      web_client: web,
      admin_client: admin,
      ...(handover ? { handover_client: handover } : {}),
    };
  }),
  'orgs add-member': cliCommand(orgsMemberInput, ['org', 'username'], async (ctx: CliContext, { org, username }) => {
    const organization = await ctx.organizations.find(org);
    if (!organization) throw new NotFoundError(`organization ${org}`);
    const user = await userNamed(ctx, username);
    await addMember(ctx, organization.id, user.id);
    return { organization: organization.name, username, added: true };
  }),
  'orgs remove-member': cliCommand(orgsMemberInput, ['org', 'username'], async (ctx: CliContext, { org, username }) => {
    const organization = await ctx.organizations.find(org);
    if (!organization) throw new NotFoundError(`organization ${org}`);
    await removeMember(ctx, organization.id, (await userNamed(ctx, username)).id);
    return { organization: organization.name, username, removed: true };
  }),
  'users logout': cliCommand(usernameInput, ['username'], async (ctx: CliContext, { username }) => ({
    username,
    grants_ended: await endAccountSessions(ctx, (await userNamed(ctx, username)).id),
  })),
  'users disable': cliCommand(usernameInput, ['username'], async (ctx: CliContext, { username }) => {
    await updateUser(ctx, (await userNamed(ctx, username)).id, { enabled: false });
    return { username, enabled: false };
  }),
  'users enable': cliCommand(usernameInput, ['username'], async (ctx: CliContext, { username }) => {
    await updateUser(ctx, (await userNamed(ctx, username)).id, { enabled: true });
    return { username, enabled: true };
  }),
  'users delete': cliCommand(usernameInput, ['username'], async (ctx: CliContext, { username }) => {
    await deleteUser(ctx, (await userNamed(ctx, username)).id);
    return { username, deleted: true };
  }),
  'roles list': async (ctx) => ({
    realm: (await ctx.roles.list(REALM)).map((r) => r.name),
    [REALM_MANAGEMENT]: [...REALM_MANAGEMENT_ROLES],
  }),
  'roles create': cliCommand(rolesCreateInput, ['name'], async (ctx: CliContext, input) => {
    const role = await createRealmRole(ctx, input);
    return { id: role.id, name: role.name };
  }),
  'roles grant': cliCommand(rolesGrantInput, ['roles'], async (ctx: CliContext, input) => {
    const { userId, roleIds } = await roleTarget(ctx, input);
    await ctx.roles.addMappings(userId, roleIds);
    return { roles: input.roles, granted: true };
  }),
  'roles revoke': cliCommand(rolesGrantInput, ['roles'], async (ctx: CliContext, input) => {
    const { userId, roleIds } = await roleTarget(ctx, input);
    await ctx.roles.removeMappings(userId, roleIds);
    return { roles: input.roles, revoked: true };
  }),
  'orgs create': cliCommand(orgsCreateInput, ['name'], (ctx: CliContext, { name }) => ctx.organizations.create(name)),
  'orgs list': async (ctx) => ctx.organizations.list(),
  'users create': cliCommand(usersCreateInput, ['username'], async (ctx: CliContext, input) => {
    const { user, generatedPassword } = await createUser(ctx, input);
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      email_verified: user.emailVerified,
      organization: user.organizationName,
      ...(generatedPassword ? { password: generatedPassword } : {}),
    };
  }),
  'users set-password': cliCommand(usersSetPasswordInput, ['username'], async (ctx: CliContext, { username, password }) => {
    await setUserPassword(ctx, username, password);
    return { username, updated: true };
  }),
  'users list': async (ctx) => (await ctx.users.list()).map((u) => ({ id: u.id, username: u.username, email: u.email, organization: u.organizationName })),
  'apis create': cliCommand(apisCreateInput, ['identifier'], (ctx: CliContext, input) => createApi(ctx, input)),
  'apis list': async (ctx) => ctx.apis.list(),
  'clients create': cliCommand(clientsCreateInput, [], async (ctx: CliContext, input) => {
    const { client, clientSecret } = await createClient(ctx, input);
    return { ...publicClient(client), ...(clientSecret ? { client_secret: clientSecret } : {}) };
  }),
  'clients list': async (ctx) => (await ctx.clients.list()).map(publicClient),
  'clients rotate-secret': cliCommand(clientIdInput, ['clientId'], async (ctx: CliContext, input) => {
    const { clientId, clientSecret } = await rotateClientSecret(ctx, input.clientId);
    return { client_id: clientId, client_secret: clientSecret };
  }),
  'clients update': cliCommand(clientsUpdateInput, ['clientId'], async (ctx: CliContext, input) => {
    const c = await ctx.clients.find(input.clientId);
    if (!c) throw new NotFoundError(`client ${input.clientId}`);
    if (input.enable && input.disable) throw new InvalidInputError('give --enable or --disable, not both');
    const updated = await updateClient(ctx, c.clientId, {
      name: input.name ?? c.name,
      description: c.description,
      enabled: input.enable ? true : input.disable ? false : c.enabled,
      public: c.secretHash === null,
      grantTypes: listOption(input.grants) ?? c.grantTypes,
      scopes: listOption(input.scopes) ?? c.scopes,
      redirectUris: listOption(input['redirect-uri']) ?? c.redirectUris,
      postLogoutRedirectUris: c.postLogoutRedirectUris,
      webOrigins: listOption(input['web-origin']) ?? c.webOrigins,
      organization: c.organizationId ?? undefined,
      signingAlg: c.signingAlg ?? undefined,
      pkceMethod: c.pkceMethod ?? undefined,
      consentRequired: c.consentRequired,
    });
    return { ...publicClient(updated), enabled: updated.enabled };
  }),
  'clients secret': cliCommand(clientIdInput, ['clientId'], async (ctx: CliContext, { clientId }) => ({
    client_id: clientId,
    client_secret: await readClientSecret(ctx, clientId),
  })),
  'clients delete': cliCommand(clientIdInput, ['clientId'], async (ctx: CliContext, { clientId }) => {
    await deleteClient(ctx, clientId);
    return { client_id: clientId, deleted: true };
  }),
  'keys list': async (ctx) =>
    (await ctx.signingKeys.list()).map((k) => ({ kid: k.kid, alg: k.alg, status: k.status, createdAt: k.createdAt, activatedAt: k.activatedAt, retireAfter: k.retireAfter })),
  'keys rotate': async (ctx) => rotateKeysStep(ctx),
  'keys add-next': async (ctx) => ({ kids: await addNextKey(ctx), status: 'next' }),
  'keys promote': async (ctx) => {
    const promoted = await promoteNextKey(ctx);
    if (!promoted) throw new InvalidInputError('there is no next key; run "keys add-next" first');
    return promoted;
  },
  'keys retire': cliCommand(keysRetireInput, [], async (ctx: CliContext, { force }) => ({ retired: await retireKeys(ctx, force) })),
  rewrap: cliCommand(rewrapInput, [], async (ctx: CliContext, input) =>
    rewrapAll(ctx, { batchSize: input['batch-size'], onProgress: (p) => process.stderr.write(`${p.name}: ${p.rewrapped} rewrapped, ${p.left} left\n`) }),
  ),
};

async function userNamed(ctx: CliContext, username: string) {
  const user = await ctx.users.findByUsername(username);
  if (!user) throw new NotFoundError(`user ${username}`);
  return user;
}

/** The user (or client's service-account user) and the roles a grant or revoke names: realm-management's first, realm roles otherwise. */
async function roleTarget(ctx: CliContext, input: { roles: string[]; user?: string | undefined; client?: string | undefined }) {
  let userId: string;
  if (input.client !== undefined) {
    const client = await ctx.clients.find(input.client);
    if (!client) throw new NotFoundError(`client ${input.client}`);
    userId = (await serviceAccountUser(ctx, client)).id;
  } else {
    userId = (await userNamed(ctx, input.user ?? '')).id;
  }
  const roleIds: string[] = [];
  for (const name of input.roles) {
    const container = (REALM_MANAGEMENT_ROLES as readonly string[]).includes(name) ? REALM_MANAGEMENT : REALM;
    roleIds.push(...(await resolveRoles(ctx, container, [{ name }])).map((r) => r.id));
  }
  return { userId, roleIds };
}

function publicClient(c: Awaited<ReturnType<Context['clients']['find']>> & object) {
  return {
    client_id: c.clientId,
    name: c.name,
    public: c.secretHash === null,
    grant_types: c.grantTypes,
    scopes: c.scopes,
    redirect_uris: c.redirectUris,
    web_origins: c.webOrigins,
    organization: c.organizationName,
    client_credentials_refresh: c.clientCredentialsRefresh,
    signing_alg: c.signingAlg ?? undefined,
    pkce_method: c.pkceMethod ?? undefined,
  };
}

/** Runs one command; never exits the process, so tests drive the CLI exactly as a shell does. */
export function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  return runCommand(
    {
      usage: USAGE,
      commands,
      options: {
        password: { type: 'string' },
        'batch-size': { type: 'string' },
        email: { type: 'string' },
        'email-verified': { type: 'boolean' },
        name: { type: 'string' },
        org: { type: 'string' },
        scopes: { type: 'string', multiple: true },
        ttl: { type: 'string' },
        grants: { type: 'string', multiple: true },
        id: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        'post-logout-redirect-uri': { type: 'string', multiple: true },
        'web-origin': { type: 'string', multiple: true },
        public: { type: 'boolean' },
        'signing-alg': { type: 'string' },
        'pkce-method': { type: 'string' },
        'consent-required': { type: 'boolean' },
        force: { type: 'boolean' },
        'secrets-audience': { type: 'string' },
        'secrets-url': { type: 'string' },
        user: { type: 'string' },
        enable: { type: 'boolean' },
        disable: { type: 'boolean' },
        client: { type: 'string' },
        description: { type: 'string' },
      },
      open: (env) => {
        const config = readConfig(env);
        const db = createDb(config.DATABASE_URL, Math.min(2, config.DATABASE_POOL_MAX));
        const ctx = createContext(config, db);
        return { ctx: { ...ctx, env }, close: () => Promise.all([db.destroy(), ctx.revocations.close(), ctx.passwords.close()]).then(() => undefined) };
      },
    },
    argv,
    env,
  );
}
