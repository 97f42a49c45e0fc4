/**
 * Plans decide how long a secret may be (from 1,000 to 10,000 characters, by plan).
 * Length is counted in characters (Unicode code points), never bytes, and a longer secret is
 * refused with 413, never truncated.
 */
export const PLAN_NAMES = ['basic', 'standard', 'pro'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export interface Plan {
  /** `anonymous`: the plan of anonymous shares (ANONYMOUS_SHARES, ANONYMOUS_MAX_SECRET_LENGTH), never an account's. */
  name: PlanName | 'anonymous';
  maxSecretLength: number;
}

export const PLANS: Record<PlanName, Plan> = {
  basic: { name: 'basic', maxSecretLength: 1_000 },
  standard: { name: 'standard', maxSecretLength: 5_000 },
  pro: { name: 'pro', maxSecretLength: 10_000 },
};

export const isPlanName = (name: string): name is PlanName => (PLAN_NAMES as readonly string[]).includes(name);

/** An unknown name in the database (a plan since removed) falls back to the default. */
export const planOf = (name: string | null | undefined, fallback: PlanName): Plan => PLANS[name && isPlanName(name) ? name : fallback];
