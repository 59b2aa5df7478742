import type { Config } from "@/lib/config";

/**
 * Named limits as data (STYLE practice 5). The stores read these; nothing else hard-codes a number,
 * a window or a key prefix.
 */

/** A sliding window: at most `limit` requests in any `windowSeconds` span, per key under `prefix`. */
export interface WindowPolicy {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly prefix: string;
}

/** A counter per calendar month (UTC), shared by every caller: keys are `${prefix}:YYYY-MM`. */
export interface MonthlyBudgetPolicy {
  readonly limit: number;
  readonly prefix: string;
}

/** Both policies LinkLens enforces on the analyzer. */
export interface Policies {
  readonly ip: WindowPolicy;
  readonly budget: MonthlyBudgetPolicy;
}

/** Per-IP limit on every POST to the analyzer (decisions.md: 10 per 60 s by default). */
export function ipPolicy(config: Pick<Config, "RATE_LIMIT_PER_MINUTE">): WindowPolicy {
  return { limit: config.RATE_LIMIT_PER_MINUTE, windowSeconds: 60, prefix: "linklens:ip" } as const;
}

/** Monthly budget of accepted URL-mode renders (decisions.md: 1000 by default; 0 disables URL mode). */
export function budgetPolicy(config: Pick<Config, "DEMO_URL_MONTHLY_BUDGET">): MonthlyBudgetPolicy {
  return { limit: config.DEMO_URL_MONTHLY_BUDGET, prefix: "linklens:budget" } as const;
}

/** The policies for a parsed configuration. */
export function policiesFor(config: Pick<Config, "RATE_LIMIT_PER_MINUTE" | "DEMO_URL_MONTHLY_BUDGET">): Policies {
  return { ip: ipPolicy(config), budget: budgetPolicy(config) };
}
