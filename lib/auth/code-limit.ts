import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { rateLimitHeaders } from "../ratelimit";
import { countWrongCode, peekWrongCodes, WRONG_CODES_PER_WINDOW } from "./limits";

/**
 * At most 5 wrong two-factor codes per user per 15 minutes, TOTP and backup codes together, then 429
 * RATE_LIMITED until the window has room again (docs/spec/account-api.md "Two-factor sign-in"). Counted in
 * the sign-in limiters' storage (./limits.ts: Upstash when configured), so every instance counts together.
 *
 * Before a code is checked, a full window refuses it unchecked (a right code too: the guesser does not
 * learn it was right); after a wrong one, it is counted. The user is the one Better Auth checks the code
 * of: the signed-in user, else the one of the pending sign-in (the plugin's signed cookie). Two wrong codes
 * sent at the very same moment may both be checked before either is counted; the plugin lets one pending
 * sign-in check one code at a time, so that takes several sign-ins, each behind the password or the
 * mailbox and the sign-in limits.
 */

const CODE_PATHS = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code", "/two-factor/verify-otp"]);
/** Better Auth's answers to a code that is not the user's. */
const WRONG_CODE_ANSWERS = new Set(["INVALID_CODE", "INVALID_BACKUP_CODE"]);
/** The plugin's cookie of a pending sign-in (its name before Better Auth's prefix). */
const PENDING_SIGN_IN_COOKIE = "two_factor";

type Ctx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The user whose code this is, as Better Auth will find them; null when none (Better Auth refuses that). */
async function codeOwner(ctx: Ctx): Promise<string | null> {
  const session = await getSessionFromCtx(ctx);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie(PENDING_SIGN_IN_COOKIE);
  const pending = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!pending) return null;
  const challenge = await ctx.context.internalAdapter.findVerificationValue(pending);
  return challenge && challenge.expiresAt > new Date() ? challenge.value : null;
}

function isWrongCode(returned: unknown): boolean {
  if (!isAPIError(returned)) return false;
  const code = (returned.body as { code?: unknown } | undefined)?.code;
  return typeof code === "string" && WRONG_CODE_ANSWERS.has(code);
}

export function wrongCodeLimit() {
  return {
    id: "linklens-wrong-code-limit",
    hooks: {
      before: [
        {
          matcher: (ctx) => CODE_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const owner = await codeOwner(ctx);
            if (!owner) return;
            const window = await peekWrongCodes(owner);
            if (window.allowed) return;
            throw new APIError(
              "TOO_MANY_REQUESTS",
              {
                code: "RATE_LIMITED",
                message: `${WRONG_CODES_PER_WINDOW} wrong codes in 15 minutes: wait before you try another code.`,
              },
              rateLimitHeaders(window),
            );
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => CODE_PATHS.has(ctx.path ?? "") && isWrongCode(ctx.context.returned),
          handler: createAuthMiddleware(async (ctx) => {
            const owner = await codeOwner(ctx);
            if (owner) await countWrongCode(owner);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
