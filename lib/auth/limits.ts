import { getConfig } from "../config";
import { ApiError } from "../errors";
import {
  budgetPolicy,
  createLimiter,
  rateLimitHeaders,
  type Clock,
  type Limiter,
  type LimitResult,
} from "../ratelimit";

/** Better Auth paths whose attempts are limited per IP and per email address. */
export const LIMITED_AUTH_PATHS = new Set([
  "/sign-in/email",
  "/sign-up/email",
  "/sign-in/magic-link",
  "/request-password-reset",
]);

type Scope = "ip" | "email" | "code";
let limiters: Record<Scope, Limiter> | undefined;
let clock: Clock | undefined;

/** Wrong two-factor codes (TOTP and backup codes together) a user may enter in a window (docs/spec/account-api.md). */
export const WRONG_CODES_PER_WINDOW = 5;
const WINDOW_SECONDS = 15 * 60;

/**
 * The sign-in limiters: the public limiter's storage (Upstash when configured, in-process otherwise),
 * 15-minute windows: `AUTH_RATE_LIMIT_PER_15_MIN` attempts per email address (password guessing aims
 * at one account), `AUTH_IP_RATE_LIMIT_PER_15_MIN` per client IP (an office shares one address), and
 * five wrong two-factor codes per user (a code has a million values; five guesses barely dent them).
 */
function authLimiters(): Record<Scope, Limiter> {
  if (!limiters) {
    const config = getConfig();
    const limiter = (limit: number, prefix: string) =>
      createLimiter(config, {
        policies: { ip: { limit, windowSeconds: WINDOW_SECONDS, prefix }, budget: budgetPolicy(config) },
        ...(clock ? { now: clock } : {}),
      });
    limiters = {
      ip: limiter(config.AUTH_IP_RATE_LIMIT_PER_15_MIN, "linklens:auth"),
      email: limiter(config.AUTH_RATE_LIMIT_PER_15_MIN, "linklens:auth-email"),
      code: limiter(WRONG_CODES_PER_WINDOW, "linklens:auth-wrong-code"),
    };
  }
  return limiters;
}

/**
 * Forgets the limiters (tests that change the configuration); they are rebuilt from it on next use,
 * with `now` as the in-process store's clock when given (tests move time instead of waiting).
 */
export function resetAuthLimiters(now?: Clock): void {
  limiters = undefined;
  clock = now;
}

const codeKey = (userId: string) => `user:${userId}`;

/** The user's wrong-code window, unspent: whether one more code may be tried now. */
export function peekWrongCodes(userId: string): Promise<LimitResult> {
  return authLimiters().code.peekRequest(codeKey(userId));
}

/** Counts one wrong code of the user (refused codes are never tried, so never counted). */
export async function countWrongCode(userId: string): Promise<void> {
  await authLimiters().code.checkRequest(codeKey(userId));
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
