import { asc, eq } from "drizzle-orm";
import { ApiError } from "../errors";
import { processRuntime, type Runtime } from "../db/runtime";
import * as schema from "../db/schema";
import { getAuth } from "./index";
import { assertSameOrigin } from "./origin";
import { can, isRoleName, type Permission, type RoleName } from "./roles";

/**
 * The service context every account handler is handed and every account service takes: the runtime
 * (database, settings, clock) and who asks, in which organization, with which role. Built once per
 * request by the guard, so no route or service opens the database itself.
 */
export interface AccountContext extends Runtime {
  user: { id: string; email: string; name: string; twoFactorEnabled: boolean };
  organization: { id: string; name: string; slug: string; requireTwoFactor: boolean };
  role: RoleName;
  session: { id: string; token: string };
}

/** What a lookup scoped to the caller's organization needs (the whole context satisfies it). */
export type OrganizationScope = Pick<AccountContext, "db"> & {
  organization: Pick<AccountContext["organization"], "id" | "name" | "slug">;
};

export interface AuthorizeOptions {
  /**
   * Serve a member without two-factor sign-in even where the organization requires it: the operations
   * about the caller's own membership (the catalog's `twoFactorExempt`) and the pages that walk them
   * through enrolment.
   */
  twoFactorExempt?: boolean;
}

/**
 * The check order of docs/spec/account-api.md, steps 1–4 (step 5, unknown or foreign ids → 404, is the services'
 * job: every query they run is scoped to `organization.id`). An organization that requires two-factor
 * sign-in refuses a member without it at step 4, before the role: whatever they ask, enrolment comes first.
 */
export async function authorize(
  request: Request,
  permission: Permission,
  runtime: Runtime = processRuntime(),
  options: AuthorizeOptions = {},
): Promise<AccountContext> {
  if (request.headers.has("authorization")) {
    throw new ApiError("UNAUTHORIZED", "Account routes do not take an Authorization header.", {
      hint: "Account routes use the browser session cookie of the web app; there are no API keys. Sign in at /sign-in.",
    });
  }
  const found = await getAuth(request).api.getSession({ headers: request.headers });
  if (!found) throw new ApiError("UNAUTHORIZED", "Sign in first: no valid session.");

  assertSameOrigin(request);

  const { db } = runtime;
  // The session's active organization, else (it was left, or deleted) the user's oldest membership.
  const memberships = await db
    .select({ role: schema.member.role, organization: schema.organization })
    .from(schema.member)
    .innerJoin(schema.organization, eq(schema.organization.id, schema.member.organizationId))
    .where(eq(schema.member.userId, found.user.id))
    .orderBy(asc(schema.member.createdAt));
  const membership =
    memberships.find((m) => m.organization.id === found.session.activeOrganizationId) ?? memberships[0];
  if (!membership || !isRoleName(membership.role)) {
    throw new ApiError("FORBIDDEN", "You belong to no organization.", {
      hint: "Ask an owner to invite you, or create an organization.",
    });
  }
  const role = membership.role;
  const twoFactorEnabled = found.user.twoFactorEnabled === true;
  if (membership.organization.requireTwoFactor && !twoFactorEnabled && !options.twoFactorExempt) {
    throw new ApiError("TWO_FACTOR_REQUIRED", `${membership.organization.name} requires two-factor sign-in.`);
  }
  if (!can(role, permission)) {
    throw new ApiError("FORBIDDEN", `Your role (${role}) does not allow this.`, {
      hint: "An owner or admin of the organization can change your role (account-api.md lists what each role may do).",
    });
  }
  return {
    ...runtime,
    user: { id: found.user.id, email: found.user.email, name: found.user.name, twoFactorEnabled },
    organization: {
      id: membership.organization.id,
      name: membership.organization.name,
      slug: membership.organization.slug,
      requireTwoFactor: membership.organization.requireTwoFactor,
    },
    role,
    session: { id: found.session.id, token: found.session.token },
  };
}
