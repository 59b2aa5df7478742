import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { expireCookie } from "better-auth/cookies";
import { and, eq, like, ne } from "drizzle-orm";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import { FIRST_STEPS } from "./two-factor";

/**
 * "Trust this device" (docs/spec/account-api.md "Two-factor sign-in"): a device where a right code was
 * entered with `trustDevice: true` skips the code for 30 days at most, and never after a sign-out.
 *
 * The plugin keeps a trusted device as a signed cookie naming a verification row (`trust-device-…`,
 * value: the user's id, with its expiry), and renews both at every sign-in it lets through, so a device
 * used every few weeks would stay trusted for good. Here the renewed row keeps the expiry of the one it
 * replaces: 30 days from the code, however often the device signs in.
 *
 * Signing out ends the trust: this device's at sign-out; every other device's when they are signed out
 * from here (revoke-session, revoke-other-sessions, a password change that signs them out); every
 * device's when all sessions end (revoke-sessions, a password reset) and when the factor is turned off
 * (a later factor must not inherit old trust). Better Auth does not link a trusted device to its
 * session, so signing out one other device ends the trust of all the others: one more code each.
 */

/** The plugin's cookie (its name before Better Auth's prefix) and its verification rows' identifiers. */
const TRUST_COOKIE = "trust_device";
const TRUST_ROW_PREFIX = "trust-device-";

type Ctx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The trust row this device's cookie names (its signature checked), or null. */
async function trustOfDevice(ctx: Ctx): Promise<string | null> {
  const value = await ctx.getSignedCookie(ctx.context.createAuthCookie(TRUST_COOKIE).name, ctx.context.secret);
  const identifier = value ? value.split("!")[1] : undefined;
  return identifier?.startsWith(TRUST_ROW_PREFIX) ? identifier : null;
}

/** The trust row named by a trust cookie this response sets (the plugin's renewal), or null. */
function renewedTrust(ctx: Ctx): string | null {
  const name = ctx.context.createAuthCookie(TRUST_COOKIE).name;
  for (const line of ctx.context.responseHeaders?.getSetCookie() ?? []) {
    if (!line.startsWith(`${name}=`)) continue;
    const signed = decodeURIComponent((line.split(";")[0] ?? "").slice(name.length + 1));
    const identifier = signed.slice(0, signed.lastIndexOf(".")).split("!")[1];
    if (identifier?.startsWith(TRUST_ROW_PREFIX)) return identifier;
  }
  return null;
}

/** Ends the trust of the user's devices, but the one `keep` names. */
async function endTrust(db: Db, userId: string, keep: string | null = null): Promise<void> {
  await db
    .delete(schema.verification)
    .where(
      and(
        eq(schema.verification.value, userId),
        like(schema.verification.identifier, `${TRUST_ROW_PREFIX}%`),
        keep ? ne(schema.verification.identifier, keep) : undefined,
      ),
    );
}

/** Ends this device's trust and takes its cookie back. */
async function endDeviceTrust(ctx: Ctx, db: Db): Promise<void> {
  const identifier = await trustOfDevice(ctx);
  if (identifier) await db.delete(schema.verification).where(eq(schema.verification.identifier, identifier));
  expireCookie(ctx, ctx.context.createAuthCookie(TRUST_COOKIE));
}

const succeeded = (ctx: Ctx) => !isAPIError(ctx.context.returned);
const signedInUser = (ctx: Ctx) => ctx.context.session?.user.id ?? null;

export function trustedDevices(db: Db) {
  /** The expiry of the trust a first step came with, for the row the plugin renews it into. */
  const trustExpiry = new WeakMap<Request, Date>();
  /** The user a password reset is for, read before Better Auth spends the token. */
  const resetFor = new WeakMap<Request, string>();

  return {
    id: "linklens-trusted-devices",
    hooks: {
      before: [
        {
          matcher: (ctx) => FIRST_STEPS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const identifier = await trustOfDevice(ctx);
            const row = identifier ? await ctx.context.internalAdapter.findVerificationValue(identifier) : null;
            if (row && ctx.request) trustExpiry.set(ctx.request, row.expiresAt);
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/reset-password",
          handler: createAuthMiddleware(async (ctx) => {
            const token = (ctx.body as { token?: unknown } | undefined)?.token;
            if (typeof token !== "string" || !ctx.request) return;
            const row = await ctx.context.internalAdapter.findVerificationValue(`reset-password:${token}`);
            if (row) resetFor.set(ctx.request, row.value);
          }),
        },
      ],
      after: [
        {
          // After the two-factor plugin's step (plugins run in order): a renewed trust keeps its first expiry.
          matcher: (ctx) => FIRST_STEPS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const expiry = ctx.request ? trustExpiry.get(ctx.request) : undefined;
            const renewed = expiry ? renewedTrust(ctx) : null;
            if (!expiry || !renewed) return;
            await db
              .update(schema.verification)
              .set({ expiresAt: expiry })
              .where(eq(schema.verification.identifier, renewed));
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/sign-out",
          handler: createAuthMiddleware(async (ctx) => endDeviceTrust(ctx, db)),
        },
        {
          matcher: (ctx) => ctx.path === "/revoke-sessions" || ctx.path === "/two-factor/disable",
          handler: createAuthMiddleware(async (ctx) => {
            const userId = signedInUser(ctx);
            if (!succeeded(ctx) || !userId) return;
            await endTrust(db, userId);
            expireCookie(ctx, ctx.context.createAuthCookie(TRUST_COOKIE));
          }),
        },
        {
          matcher: (ctx) =>
            ctx.path === "/revoke-other-sessions" ||
            ctx.path === "/revoke-session" ||
            (ctx.path === "/change-password" &&
              (ctx.body as { revokeOtherSessions?: unknown } | undefined)?.revokeOtherSessions === true),
          handler: createAuthMiddleware(async (ctx) => {
            const userId = signedInUser(ctx);
            if (!succeeded(ctx) || !userId) return;
            const ownSession =
              (ctx.body as { token?: unknown } | undefined)?.token === ctx.context.session?.session.token;
            if (ctx.path === "/revoke-session" && ownSession) {
              await endTrust(db, userId);
              expireCookie(ctx, ctx.context.createAuthCookie(TRUST_COOKIE));
              return;
            }
            await endTrust(db, userId, await trustOfDevice(ctx));
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/reset-password",
          handler: createAuthMiddleware(async (ctx) => {
            const userId = ctx.request ? resetFor.get(ctx.request) : undefined;
            if (succeeded(ctx) && userId) await endTrust(db, userId);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
