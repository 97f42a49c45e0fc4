import { InvalidInputError, requiredArg, runCommand, stringArg, type CliCommand, type CliResult } from '@hush/common';
import { createAccount, listApiTokens, mintApiToken, revokeApiToken, setAccountPlan } from '../accounts/accounts.js';
import { PLANS } from '../accounts/plans.js';
import { readConfig } from '../config.js';
import { createContext, type Context } from '../context.js';
import { createDb, migrateLatest } from '../db/knex.js';
import { UnknownTokenError } from '../errors.js';
import { KeyFingerprintRepository } from '../key-fingerprint/key-fingerprint.repository.js';
import { rewrapAll } from '../key-rotation/rewrap.js';
import { sweep, sweepSettings } from '../secrets/sweeper.js';

export const USAGE = `Usage: hush-secrets <command> [options] [--json]

  migrate                              apply database migrations
  accounts create <custid> [--plan P]  an account (custid: a username, a client_id, or any name)
  accounts list
  plans list                           plans and their maximum secret length
  plans set <custid> <plan>            set an account's plan (creates the account if needed)
  tokens create <custid> [--label L]   mint an API token (HTTP Basic custid:token); printed once
  tokens list <custid>
  tokens revoke <token-id>
  sweep                                delete expired secrets and metadata now
  rewrap [--batch-size N]              move everything sealed under MASTER_KEYS_PREVIOUS under
                                       MASTER_KEY (resumable; progress on stderr); then the
                                       previous keys can be removed (docs/deploy.md)

Environment: DATABASE_URL, MASTER_KEY (or MASTER_KEY_FILE), MASTER_KEYS_PREVIOUS; see .env.example.`;

const str = stringArg;
const need = requiredArg;
const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

const commands: Record<string, CliCommand<Context>> = {
  migrate: async (ctx) => ({ migrations: await migrateLatest(ctx.db) }),
  'accounts create': async (ctx, p, v) => {
    const a = await createAccount(ctx, need(p[0], 'custid'), str(v['plan']));
    return { custid: a.custid, plan: a.plan, created: unix(a.createdAt) };
  },
  'accounts list': async (ctx) => (await ctx.accounts.list()).map((a) => ({ custid: a.custid, plan: a.plan, created: unix(a.createdAt) })),
  'plans list': (ctx) => Promise.resolve(Object.values(PLANS).map((p) => ({ plan: p.name, max_secret_length: p.maxSecretLength, default: p.name === ctx.config.DEFAULT_PLAN }))),
  'plans set': async (ctx, p) => {
    const a = await setAccountPlan(ctx, need(p[0], 'custid'), need(p[1], 'plan'));
    return { custid: a.custid, plan: a.plan };
  },
  'tokens create': async (ctx, p, v) => mintApiToken(ctx, need(p[0], 'custid'), str(v['label'])),
  'tokens list': async (ctx, p) =>
    (await listApiTokens(ctx, need(p[0], 'custid'))).map((t) => ({ id: t.id, label: t.label, created: unix(t.createdAt), revoked: unix(t.revokedAt) })),
  'tokens revoke': async (ctx, p) => {
    const id = need(p[0], 'token id');
    if (!(await revokeApiToken(ctx, id))) throw new UnknownTokenError();
    return { id, revoked: true };
  },
  sweep: (ctx) => sweep(ctx.sweeps, sweepSettings(ctx.config)),
  rewrap: (ctx, _p, v) =>
    rewrapAll(
      { db: ctx.db, crypto: ctx.crypto, masterKeys: ctx.masterKeys, fingerprints: new KeyFingerprintRepository(ctx.db) },
      { batchSize: batchSize(str(v['batch-size'])), onProgress: (p) => process.stderr.write(`${p.name}: ${p.rewrapped} rewrapped, ${p.left} left\n`) },
    ),
};

/** `--batch-size`: rows per transaction (default 500). */
function batchSize(given: string | undefined): number {
  if (given === undefined) return 500;
  const n = Number(given);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new InvalidInputError('--batch-size must be a whole number from 1 to 10000');
  return n;
}

/** Runs one command; never exits the process, so tests drive the CLI exactly as a shell does. */
export function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliResult> {
  return runCommand(
    {
      usage: USAGE,
      commands,
      options: { plan: { type: 'string' }, label: { type: 'string' }, 'batch-size': { type: 'string' } },
      open: (env) => {
        const config = readConfig(env);
        const db = createDb(config.DATABASE_URL, Math.min(2, config.DATABASE_POOL_MAX));
        return { ctx: createContext(config, db), close: () => db.destroy() };
      },
    },
    argv,
    env,
  );
}
