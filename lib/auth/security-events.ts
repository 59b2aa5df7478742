import type { AuthContext, BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware, getIP, isAPIError } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import { enqueueEmail } from "../mail/outbox";
import {
  backupCodeUsedEmail,
  twoFactorDisabledEmail,
  twoFactorEnabledEmail,
  type SecurityEventFacts,
} from "../mail/security-emails";
import type { EmailContent } from "../mail/templates";
import { recordUserActivity, type ActivityAction } from "./activity-log";
import { FIRST_STEPS } from "./two-factor";

/**
 * What happens to an account's sign-in security, written down as it happens: a row in the activity log
 * of each of the user's organizations, and for two-factor sign-in turned on or off and a backup code used,
 * an email to the user (through the outbox, in the same transaction as the log rows).
 *
 * Sign-ins are logged here, once a session is really handed out, rather than whenever Better Auth makes
 * one: a first step held back for the second factor makes a session and takes it back at once, and turning
 * the factor on or off replaces the user's session without anyone signing in.
 */

type Ctx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
/** What the predicates read, in a matcher's context and a handler's alike. */
type Outcome = {
  context: { returned?: unknown; session: AuthContext["session"]; newSession: AuthContext["newSession"] };
};

/** The steps that hand out a session, and how each proves the user (for the log). */
const SIGN_IN_METHODS: Record<string, string> = {
  "/sign-up/email": "sign_up",
  "/sign-in/email": "password",
  "/magic-link/verify": "email_link",
  "/verify-email": "email_confirmation",
  "/two-factor/verify-totp": "totp",
  "/two-factor/verify-backup-code": "backup_code",
};

const succeeded = (ctx: Outcome) => !isAPIError(ctx.context.returned);

/** A session was handed out to someone who did not come with one of their own. */
function signedIn(ctx: Outcome): boolean {
  const created = ctx.context.newSession;
  return created !== null && succeeded(ctx) && ctx.context.session?.user.id !== created.user.id;
}

/** The first right code of an enrolment: the user's factor is on now, and was not when the request came. */
function turnedOn(ctx: Outcome): boolean {
  const before = ctx.context.session;
  return (
    succeeded(ctx) &&
    before !== null &&
    before.user.twoFactorEnabled !== true &&
    ctx.context.newSession?.user.twoFactorEnabled === true
  );
}

function factsOf(ctx: Ctx, at: Date): SecurityEventFacts {
  const source = ctx.request ?? ctx.headers;
  return {
    at,
    userAgent: ctx.headers?.get("user-agent") ?? null,
    ipAddress: source ? getIP(source, ctx.context.options) : null,
    settingsUrl: `${new URL(ctx.context.baseURL).origin}/app/settings#security`,
  };
}

/** The backup codes the user has left, or null when they cannot be read (the email then says less). */
async function backupCodesLeft(ctx: Ctx, db: Db, userId: string): Promise<number | null> {
  try {
    const [row] = await db
      .select({ backupCodes: schema.twoFactor.backupCodes })
      .from(schema.twoFactor)
      .where(eq(schema.twoFactor.userId, userId))
      .limit(1);
    if (!row) return null;
    const codes: unknown = JSON.parse(await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.backupCodes }));
    return Array.isArray(codes) ? codes.length : null;
  } catch {
    return null;
  }
}

export function securityEvents(db: Db) {
  /** The log rows (and the email, if any) of one event, committed together. */
  async function record(
    ctx: Ctx,
    user: { id: string; email: string },
    action: ActivityAction,
    details: Record<string, unknown>,
    content: EmailContent | null,
  ): Promise<void> {
    const facts = factsOf(ctx, new Date());
    await db.transaction(async (tx) => {
      await recordUserActivity(tx, user, {
        action,
        target: { type: "user", id: user.id },
        details: { userAgent: facts.userAgent, ...details },
        ipAddress: facts.ipAddress,
      });
      if (content) await enqueueEmail(tx, { to: user.email, content });
    });
  }

  return {
    id: "linklens-security-events",
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === "/two-factor/verify-totp" && turnedOn(ctx),
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.newSession?.user;
            if (user)
              await record(ctx, user, "user.two_factor_enabled", {}, twoFactorEnabledEmail(factsOf(ctx, new Date())));
          }),
        },
        {
          matcher: (ctx) =>
            ctx.path === "/two-factor/disable" && succeeded(ctx) && ctx.context.session?.user.twoFactorEnabled === true,
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.session?.user;
            if (user)
              await record(ctx, user, "user.two_factor_disabled", {}, twoFactorDisabledEmail(factsOf(ctx, new Date())));
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/two-factor/verify-backup-code" && succeeded(ctx),
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.session?.user ?? ctx.context.newSession?.user;
            if (!user) return;
            const codesLeft = await backupCodesLeft(ctx, db, user.id);
            await record(
              ctx,
              user,
              "user.backup_code_used",
              { codesLeft },
              backupCodeUsedEmail({ ...factsOf(ctx, new Date()), codesLeft }),
            );
          }),
        },
        {
          matcher: (ctx) => ctx.path === "/two-factor/generate-backup-codes" && succeeded(ctx),
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.session?.user;
            if (user) await record(ctx, user, "user.backup_codes_regenerated", {}, null);
          }),
        },
        {
          // After the two-factor steps (plugins run in order): a first step held back has no session now.
          matcher: (ctx) => Object.hasOwn(SIGN_IN_METHODS, ctx.path ?? "") && signedIn(ctx),
          handler: createAuthMiddleware(async (ctx) => {
            const created = ctx.context.newSession;
            if (!created) return;
            const path = ctx.path ?? "";
            // A first step of a user with the factor on that kept its session came from a trusted device.
            const trustedDevice = FIRST_STEPS.has(path) && created.user.twoFactorEnabled === true;
            await record(
              ctx,
              created.user,
              "user.sign_in",
              { method: SIGN_IN_METHODS[path], ...(trustedDevice ? { trustedDevice } : {}) },
              null,
            );
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
