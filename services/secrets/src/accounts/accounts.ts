import { isUuid, randomToken, sha256 } from '@hush/common';
import { AdminError } from '../errors.js';
import type { AccountsRepository, Account } from './accounts.repository.js';
import type { ApiTokensRepository, ApiToken, TokenOwner } from './api-tokens.repository.js';
import { isPlanName, PLAN_NAMES, type PlanName } from './plans.js';

/** API tokens: 256 random bits behind a recognisable prefix (secret scanners can find leaks). */
export const TOKEN_PREFIX = 'hush_';
// A custid is the username half of HTTP Basic credentials, so it cannot contain a colon.
const CUSTID = /^[^\s:\p{Cc}]{1,254}$/u;

export const hashToken = (token: string): Buffer => sha256(token);

export interface MintedToken {
  id: string;
  custid: string;
  label: string | null;
  api_token: string;
  created: number;
}

export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tokens: ApiTokensRepository,
    private readonly defaultPlan: PlanName,
    private readonly cacheSeconds = 0,
  ) {}

  /** Valid tokens seen recently, by token hash (never the token); bounded, oldest evicted first. */
  private readonly cache = new Map<string, { owner: TokenOwner; until: number }>();
  private static readonly CACHE_MAX = 10_000;

  createAccount(custid: string, plan: string | undefined): Promise<Account> {
    return this.accounts.create(checkCustid(custid), checkPlan(plan ?? this.defaultPlan));
  }

  setPlan(custid: string, plan: string): Promise<Account> {
    return this.accounts.setPlan(checkCustid(custid), checkPlan(plan));
  }

  /** Mints a token for the account (created on first use with the default plan); the clear token is returned once. */
  async mintToken(custid: string, label?: string): Promise<MintedToken> {
    await this.accounts.ensure(checkCustid(custid), this.defaultPlan);
    const token = `${TOKEN_PREFIX}${randomToken(32)}`;
    const row = await this.tokens.create(custid, hashToken(token), label?.slice(0, 100) ?? null);
    return { id: row.id, custid, label: row.label, api_token: token, created: Math.floor(row.createdAt.getTime() / 1000) };
  }

  /** False when there is no such active token (or it belongs to another account). */
  async revokeToken(id: string, custid?: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    for (const [hash, entry] of this.cache) if (entry.owner.tokenId === id) this.cache.delete(hash);
    return this.tokens.revoke(id, custid);
  }

  listTokens(custid: string): Promise<ApiToken[]> {
    return this.tokens.list(custid);
  }

  /** Basic credentials: the token must exist, be active, and belong to the named account. */
  async authenticate(username: string, token: string): Promise<TokenOwner | undefined> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return undefined;
    const hash = hashToken(token);
    const key = hash.toString('base64');
    const cached = this.cache.get(key);
    let owner = cached && cached.until > Date.now() ? cached.owner : undefined;
    if (!owner) {
      owner = await this.tokens.findOwner(hash);
      if (owner && this.cacheSeconds > 0) {
        this.cache.delete(key);
        if (this.cache.size >= AccountsService.CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
        this.cache.set(key, { owner, until: Date.now() + this.cacheSeconds * 1000 });
      }
    }
    return owner && owner.custid === username ? owner : undefined;
  }
}

function checkCustid(custid: string): string {
  if (!CUSTID.test(custid)) throw new AdminError('invalid_input', 'custid must be 1 to 254 characters without spaces, colons or control characters');
  return custid;
}

function checkPlan(plan: string): PlanName {
  if (!isPlanName(plan)) throw new AdminError('invalid_input', `unknown plan ${plan}; plans: ${PLAN_NAMES.join(', ')}`);
  return plan;
}
