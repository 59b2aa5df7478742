import type { BetterAuthPlugin, HookEndpointContext } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { twoFactor } from "better-auth/plugins/two-factor";
import { ApiError } from "../errors";

/**
 * Two-factor sign-in (docs/spec/account-api.md "Two-factor sign-in"): Better Auth's plugin at its own paths
 * under /api/auth/two-factor/, TOTP per RFC 6238 (SHA-1, 6 digits, 30 s, issuer LinkLens), 10 one-time
 * backup codes, "trust this device" for 30 days at most.
 *
 * The plugin holds back the session of a password sign-in until a code is right, and nothing else:
 * Better Auth treats a sign-in by emailed link as proof enough. LinkLens does not, so the plugin's own
 * step (the session taken back, the pending state in its signed cookie, `{ twoFactorRedirect: true }`)
 * also ends every other first step that hands out a session: the emailed sign-in link and the address
 * confirmation that signs in. A browser that followed such a link is sent on to the app's second step.
 * (Sign-up cannot reach it: a new account has no factor. Other paths that make a session keep one the
 * request already had: changing the password, enabling or disabling the factor, accepting an invitation.)
 */

export const TWO_FACTOR_ISSUER = "LinkLens";
export const BACKUP_CODE_COUNT = 10;
export const TRUST_DEVICE_DAYS = 30;
/** The app's second step of sign-in: the code (or a backup code), and "trust this device". */
export const SECOND_STEP_PAGE = "/sign-in/two-factor";

/**
 * 400 for an `issuer` in POST /two-factor/enable: the plugin would put it in the authenticator's entry,
 * which names LinkLens whoever asks.
 */
export function rejectOwnIssuer(path: string, body: unknown, hint: string): void {
  if (path !== "/two-factor/enable" || typeof body !== "object" || body === null || !Object.hasOwn(body, "issuer"))
    return;
  throw new ApiError("INVALID_REQUEST", `issuer: authenticator apps show ${TWO_FACTOR_ISSUER}; leave it out.`, {
    hint,
  });
}

/** First steps by emailed link: Better Auth signs in without a second factor here. */
const LINK_FIRST_STEPS = new Set(["/magic-link/verify", "/verify-email"]);
/** Every first step that hands out a session, for the other two-factor rules (trust, sign-in log). */
export const FIRST_STEPS = new Set(["/sign-in/email", ...LINK_FIRST_STEPS]);

/**
 * Whether this request handed out a new session rather than keeping the one it came with (an address
 * confirmed while signed in keeps that session: nothing to ask for).
 */
export function startedSession(ctx: HookEndpointContext): boolean {
  const created = ctx.context.newSession;
  return created !== null && created.session.token !== ctx.context.session?.session.token;
}

/** Better Auth's answer of a first step held back for the second factor. */
function isHeldBack(returned: unknown): boolean {
  return (
    typeof returned === "object" &&
    returned !== null &&
    (returned as { twoFactorRedirect?: unknown }).twoFactorRedirect === true
  );
}

/**
 * Where a browser that followed an emailed link goes when a code is still needed: the second step,
 * then the link's own destination (a path of this site: Better Auth refused any other callbackURL).
 */
function secondStepOf(callbackURL: string, baseURL: string): string {
  const destination = new URL(callbackURL, baseURL);
  const next = `${destination.pathname}${destination.search}${destination.hash}`;
  return `${SECOND_STEP_PAGE}?next=${encodeURIComponent(next)}`;
}

export function twoFactorSignIn() {
  const plugin = twoFactor({
    issuer: TWO_FACTOR_ISSUER,
    totpOptions: { digits: 6, period: 30 },
    backupCodeOptions: { amount: BACKUP_CODE_COUNT, length: 10 },
    trustDeviceMaxAge: TRUST_DEVICE_DAYS * 24 * 60 * 60,
    // Wrong codes are limited by LinkLens (./code-limit.ts: 5 per user per 15 minutes in the shared
    // limiter, so every instance counts together); the plugin's lockout would add a second rule that
    // counts differently and outlasts that window.
    accountLockout: { enabled: false },
  });
  const [signIn, ...others] = plugin.hooks.after;
  if (!signIn) throw new Error("Better Auth's two-factor plugin has no sign-in hook to extend");
  const everyFirstStep: NonNullable<BetterAuthPlugin["hooks"]>["after"] = [
    {
      ...signIn,
      matcher: (ctx) => signIn.matcher(ctx) || (LINK_FIRST_STEPS.has(ctx.path ?? "") && startedSession(ctx)),
    },
    {
      // Runs after the step above held the link's session back: the browser lands on the second step.
      // Called without a callbackURL (a script), the link answers `{ twoFactorRedirect: true }` as is.
      matcher: (ctx) =>
        LINK_FIRST_STEPS.has(ctx.path ?? "") &&
        isHeldBack(ctx.context.returned) &&
        typeof ctx.query?.callbackURL === "string",
      handler: createAuthMiddleware(async (ctx) => {
        throw ctx.redirect(secondStepOf(String(ctx.query?.callbackURL), ctx.context.baseURL));
      }),
    },
    ...others,
  ];
  return { ...plugin, hooks: { ...plugin.hooks, after: everyFirstStep } };
}
