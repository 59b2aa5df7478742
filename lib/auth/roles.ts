import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";

/**
 * The four roles of docs/spec/account-api.md, each including the one below, as Better Auth access-control roles.
 * Better Auth's organization endpoints check its own statements (organization, member, invitation);
 * LinkLens adds `account` (read the organization's data), `audit` (the product's data: audits,
 * domain groups, monitors, tracked links, imports, exports), `auditLog`, `webhook` and `share` (client report links, admin+).
 */
export const statements = {
  ...defaultStatements,
  account: ["read"],
  audit: ["create", "update", "delete", "run", "import", "export"],
  auditLog: ["read"],
  outbox: ["read"],
  ownership: ["transfer"],
  /** Webhook endpoints: create, change, delete, rotate, test, retry (webhooks.md: admin+; reads are `account`). */
  webhook: ["manage"],
  share: ["create", "revoke"],
} as const;

export const ac = createAccessControl(statements);

export const viewer = ac.newRole({
  account: ["read"],
  ac: ["read"],
});

export const member = ac.newRole({
  account: ["read"],
  ac: ["read"],
  audit: ["create", "update", "delete", "run", "import", "export"],
});

export const admin = ac.newRole({
  account: ["read"],
  ac: ["read"],
  audit: ["create", "update", "delete", "run", "import", "export"],
  auditLog: ["read"],
  organization: ["update"],
  invitation: ["create", "cancel"],
  member: ["create", "update", "delete"],
  webhook: ["manage"],
  share: ["create", "revoke"],
});

export const owner = ac.newRole({
  account: ["read"],
  ac: ["read"],
  audit: ["create", "update", "delete", "run", "import", "export"],
  auditLog: ["read"],
  outbox: ["read"],
  organization: ["update", "delete"],
  invitation: ["create", "cancel"],
  member: ["create", "update", "delete"],
  ownership: ["transfer"],
  webhook: ["manage"],
  share: ["create", "revoke"],
});

export const roles = { owner, admin, member, viewer } as const;
export type RoleName = keyof typeof roles;
export const ROLE_NAMES = ["viewer", "member", "admin", "owner"] as const satisfies readonly RoleName[];

/** Rank for "below admin" rules: a viewer is 0, an owner 3. */
export function roleRank(role: RoleName): number {
  return ROLE_NAMES.indexOf(role);
}

export function isRoleName(value: string): value is RoleName {
  return (ROLE_NAMES as readonly string[]).includes(value);
}

type Statements = typeof statements;
/** One permission request, e.g. `{ auditLog: ["read"] }`. */
export type Permission = { [K in keyof Statements]?: Statements[K][number][] };

/** Whether `role` has every permission asked for (Better Auth's authorize over our roles). */
export function can(role: RoleName, permission: Permission): boolean {
  return roles[role].authorize(permission as never).success;
}
