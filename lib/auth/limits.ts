import { getConfig } from "../config";
import { ApiError } from "../errors";
import { budgetPolicy, createLimiter, rateLimitHeaders, type Limiter } from "../ratelimit";

/** Better Auth paths whose attempts are limited per IP and per email address. */
export const LIMITED_AUTH_PATHS = new Set([
  "/sign-in/email",
  "/sign-up/email",
  "/sign-in/magic-link",
  "/request-password-reset",
]);

type Scope = "ip" | "email";
let limiters: Record<Scope, Limiter> | undefined;

/**
 * The sign-in limiters: the public limiter's storage (Upstash when configured, in-process otherwise),
 * 15-minute windows: `AUTH_RATE_LIMIT_PER_15_MIN` attempts per email address (password guessing aims
 * at one account), `AUTH_IP_RATE_LIMIT_PER_15_MIN` per client IP (an office shares one address).
 */
function authLimiters(): Record<Scope, Limiter> {
  if (!limiters) {
    const config = getConfig();
    const limiter = (limit: number, prefix: string) =>
      createLimiter(config, { policies: { ip: { limit, windowSeconds: 900, prefix }, budget: budgetPolicy(config) } });
    limiters = {
      ip: limiter(config.AUTH_IP_RATE_LIMIT_PER_15_MIN, "linklens:auth"),
      email: limiter(config.AUTH_RATE_LIMIT_PER_15_MIN, "linklens:auth-email"),
    };
  }
  return limiters;
}

/** Forgets the limiters (tests that change the configuration); they are rebuilt from it on next use. */
export function resetAuthLimiters(): void {
  limiters = undefined;
}

/** Consumes one attempt for the client's IP and, when the body names one, for the email address. */
export async function checkAuthAttempt(clientKey: string, email: string | null): Promise<void> {
  const keys: Array<[Scope, string]> = [
    ["ip", `ip:${clientKey}`],
    ...(email ? [["email", `email:${email.trim().toLowerCase()}`] as [Scope, string]] : []),
  ];
  for (const [scope, key] of keys) {
    const result = await authLimiters()[scope].checkRequest(key);
    if (!result.allowed) {
      const what = key.startsWith("ip:") ? "from this address" : "for this email address";
      throw new ApiError("RATE_LIMITED", `Too many sign-in attempts ${what}.`, {
        hint: "Wait until the time in the Retry-After header (seconds), then try again.",
        headers: rateLimitHeaders(result),
      });
    }
  }
}
