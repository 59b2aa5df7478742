import { getConfig } from "../config";
import { ApiError } from "../errors";
import { budgetPolicy, createLimiter, rateLimitHeaders, type Limiter } from "../ratelimit";

/** Better Auth paths whose attempts are limited per IP and per email address. */
export const LIMITED_AUTH_PATHS = new Set(["/sign-in/email", "/sign-up/email", "/sign-in/magic-link", "/request-password-reset"]);

let limiter: Limiter | undefined;

/**
 * The sign-in limiter: the public limiter's storage (Upstash when configured, in-process otherwise)
 * with its own window, `AUTH_RATE_LIMIT_PER_15_MIN` attempts per 15 minutes per key.
 */
function authLimiter(): Limiter {
  if (!limiter) {
    const config = getConfig();
    limiter = createLimiter(config, {
      policies: { ip: { limit: config.AUTH_RATE_LIMIT_PER_15_MIN, windowSeconds: 900, prefix: "linklens:auth" }, budget: budgetPolicy(config) },
    });
  }
  return limiter;
}

/** Replaces the auth limiter (tests); undefined rebuilds it from the config. */
export function setAuthLimiter(next: Limiter | undefined): void {
  limiter = next;
}

/** Consumes one attempt for the client's IP and, when the body names one, for the email address. */
export async function checkAuthAttempt(clientKey: string, email: string | null): Promise<void> {
  const keys = [`ip:${clientKey}`, ...(email ? [`email:${email.trim().toLowerCase()}`] : [])];
  for (const key of keys) {
    const result = await authLimiter().checkRequest(key);
    if (!result.allowed) {
      const what = key.startsWith("ip:") ? "from this address" : "for this email address";
      throw new ApiError("RATE_LIMITED", `Too many sign-in attempts ${what}.`, {
        hint: "Wait until the time in the Retry-After header (seconds), then try again.",
        headers: rateLimitHeaders(result),
      });
    }
  }
}
