import { randomUUID } from "node:crypto";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { magicLink } from "better-auth/plugins/magic-link";
import { organization } from "better-auth/plugins/organization";
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import { enqueueEmail } from "../mail/outbox";
import { invitationEmail, magicLinkEmail, passwordResetEmail, verifyEmailEmail } from "../mail/templates";
import { siteOrigin } from "../http/origin";
import { recordActivity } from "./activity-log";
import { wrongCodeLimit } from "./code-limit";
import { securityEvents } from "./security-events";
import { trustedDevices } from "./trusted-devices";
import { twoFactorSignIn } from "./two-factor";
import { invitationLink } from "./invitation-link";
import { betterAuthLog } from "./log";
import { personalTeamName } from "./names";
import { ac, roles } from "./roles";

export interface AuthDeps {
  db: Db;
  secret: string;
  /** The site's public origin (SITE_URL); unset → Better Auth takes it from each request. */
  baseURL?: string;
  /** Origins callbackURL/redirectTo may point at (relative paths always may). */
  trustedOrigins: (request?: Request) => string[] | Promise<string[]>;
  /** Whether cookies are Secure (and `__Secure-` named): the site is served over https. */
  secureCookies: boolean;
}

function slugFor(name: string): string {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return `${base || "team"}-${randomUUID().slice(0, 8)}`;
}

/** The user's oldest membership's organization (a new account's personal one), or null. */
async function firstOrganizationOf(db: Db, userId: string): Promise<string | null> {
  const [first] = await db
    .select({ organizationId: schema.member.organizationId })
    .from(schema.member)
    .where(eq(schema.member.userId, userId))
    .orderBy(asc(schema.member.createdAt))
    .limit(1);
  return first?.organizationId ?? null;
}

/**
 * A reset link that lands on the app's reset page. Better Auth's link checks the token, then redirects to
 * the request's `redirectTo`; asked without one (a script, another client), the link would end on an
 * error page, so it goes to /reset-password, which takes the token from the query.
 */
function withResetPage(url: string): string {
  const link = new URL(url);
  if (!link.searchParams.get("callbackURL")) link.searchParams.set("callbackURL", "/reset-password");
  return link.toString();
}

/**
 * The Better Auth instance of LinkLens over a database. Emails are rows of the outbox (lib/mail), never
 * sent from a request; activity-log rows are written by the hooks below and by ./security-events.ts.
 */
export function createAuth(deps: AuthDeps) {
  const { db } = deps;

  return betterAuth({
    appName: "LinkLens",
    secret: deps.secret,
    baseURL: deps.baseURL,
    basePath: "/api/auth",
    trustedOrigins: deps.trustedOrigins,
    telemetry: { enabled: false },
    logger: { level: "warn", log: betterAuthLog },
    // LinkLens limits sign-in/up/magic-link/reset itself, per IP and per email, with the shared limiter storage.
    rateLimit: { enabled: false },
    database: drizzleAdapter(db, { provider: "pg", schema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await enqueueEmail(db, { to: user.email, content: passwordResetEmail(withResetPage(url)) });
      },
    },
    emailVerification: {
      // A verified address is what keeps a later magic-link sign-in from ending the password sessions
      // (Better Auth revokes the sessions of an unverified account when its email is first proven).
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: async ({ user, url }) => {
        await enqueueEmail(db, { to: user.email, content: verifyEmailEmail(url) });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    databaseHooks: {
      user: {
        create: {
          // Sign-up creates a personal organization with the user as owner.
          after: async (user) => {
            const organizationId = randomUUID();
            const name = personalTeamName(user.name);
            await db.transaction(async (tx) => {
              await tx
                .insert(schema.organization)
                .values({ id: organizationId, name, slug: slugFor(name), createdAt: new Date() });
              await tx
                .insert(schema.member)
                .values({ id: randomUUID(), organizationId, userId: user.id, role: "owner", createdAt: new Date() });
              await recordActivity(tx, {
                organizationId,
                actor: { id: user.id, email: user.email },
                action: "user.sign_up",
              });
            });
          },
        },
      },
      session: {
        create: {
          // Every session starts in an organization: the one it names, else the user's oldest membership.
          before: async (session) => {
            if (session.activeOrganizationId) return;
            const first = await firstOrganizationOf(db, session.userId);
            if (first) return { data: { ...session, activeOrganizationId: first } };
          },
          after: async (session) => {
            // At sign-up the personal organization is created after the session (Better Auth runs the
            // user's after-hook once its transaction commits), so the session starts there now.
            if (session.activeOrganizationId) return;
            const first = await firstOrganizationOf(db, session.userId);
            if (first)
              await db
                .update(schema.session)
                .set({ activeOrganizationId: first })
                .where(eq(schema.session.id, session.id));
          },
        },
      },
    },
    advanced: {
      // Secure cookies when the site is served over https; plain http (the embedded default on
      // localhost, the tests) would never get its cookie back otherwise. lib/auth/index.ts keeps one
      // instance per scheme and picks it per request.
      useSecureCookies: deps.secureCookies,
      // The origin rule is docs/spec/account-api.md's, applied to every /api/auth request by lib/auth/auth-endpoint.ts
      // before Better Auth runs. Better Auth's own CSRF check would also refuse what the spec allows
      // (a cookie-bearing request with no Origin: a non-browser client).
      disableCSRFCheck: true,
      // Stated, not defaulted: Better Auth skips callbackURL validation when NODE_ENV is "test", and the
      // tests must run the checks production runs (no open redirects through callbackURL).
      disableOriginCheck: false,
      database: { generateId: () => randomUUID() },
      ipAddress: { ipAddressHeaders: ["x-linklens-client-key"] },
    },
    plugins: [
      organization({
        ac,
        roles,
        creatorRole: "owner",
        invitationExpiresIn: 60 * 60 * 48,
        cancelPendingInvitationsOnReInvite: true,
        // An invitation's id proves nothing (every member lists them, and anyone can sign up the invited
        // address): accepting or rejecting takes a confirmed address. The emailed link's token confirms it
        // (lib/auth/invitation-link.ts), so following the link is enough for someone who just signed up.
        requireEmailVerificationOnInvitation: true,
        // Invitations made through Better Auth's own endpoint get the email of POST /api/account/invitations.
        sendInvitationEmail: async ({ id, email, role, organization: org, inviter }, request) => {
          const origin = request ? siteOrigin(request) : (deps.baseURL ?? "");
          await enqueueEmail(db, {
            to: email,
            organizationId: org.id,
            content: invitationEmail({
              url: invitationLink(origin, id, email, deps.secret),
              organizationName: org.name,
              inviterName: inviter.user.name || inviter.user.email,
              role,
            }),
          });
        },
        // Invitations, role changes and removal keep the spec's rules on both doors: /api/account
        // (lib/account/team.ts) and Better Auth's own endpoints (lib/auth/organization-gate.ts).
        organizationHooks: {
          afterAcceptInvitation: async ({ invitation, member, user }) => {
            await recordActivity(db, {
              organizationId: invitation.organizationId,
              actor: { id: user.id, email: user.email },
              action: "invitation.accept",
              target: { type: "member", id: member.id },
              details: { email: user.email, role: member.role },
            });
          },
          afterDeleteOrganization: async ({ organization: org, user }) => {
            await recordActivity(db, {
              organizationId: org.id,
              actor: { id: user.id, email: user.email },
              action: "organization.delete",
              details: { name: org.name },
            });
          },
        },
      }),
      magicLink({
        expiresIn: 300,
        sendMagicLink: async ({ email, url }) => {
          await enqueueEmail(db, { to: email, content: magicLinkEmail(url) });
        },
      }),
      // Two-factor sign-in, in this order: their after-hooks run in it, and each reads what the one before
      // left (the second factor takes the first step's session back before trust and the sign-in log look).
      twoFactorSignIn(),
      wrongCodeLimit(),
      trustedDevices(db),
      securityEvents(db),
      // Last: lets server actions set cookies through next/headers.
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
