import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";

/**
 * What can be done to what: one statement per resource, each listing its actions. Better Auth's
 * organization endpoints check its own statements (organization, member, invitation); LinkLens adds a
 * `read` to the member and invitation lists and one statement per resource of the product. Every account
 * operation names one of these in its catalog entry (lib/schemas/operations.ts), so a route never writes a
 * permission of its own.
 */
export const statements = {
  ...defaultStatements,
  member: [...defaultStatements.member, "read"],
  invitation: [...defaultStatements.invitation, "read"],
  /** The caller's own membership: who they are (/me), switching the active organization, leaving it. */
  membership: ["read", "switch", "leave"],
  /** The caller's own alert-email preferences in the organization. */
  notification: ["read", "update"],
  ownership: ["transfer"],
  /** What the organization asks of its members' sign-in: two-factor sign-in required or not. */
  signInPolicy: ["update"],
  /** Whether each member has two-factor sign-in on (GET /api/account/members shows it to those who run the team). */
  memberSecurity: ["read"],
  /** The security log: who did what and when. */
  activityLog: ["read"],
  /** The organization's emails and their delivery. */
  outbox: ["read"],
  /** The account API's OpenAPI document. */
  apiDocument: ["read"],
  domainGroup: ["read", "create", "update", "delete"],
  /** Saved link audits (a re-run creates one). */
  savedAudit: ["read", "create", "delete", "export"],
  /** Monitored pages; `check` runs a check now. */
  monitor: ["read", "create", "update", "delete", "check"],
  /** Tracked links, their history, CSV import and export. */
  link: ["read", "create", "update", "delete", "import", "export"],
  /** Evidence records; `capture` renders the page now and spends the daily audit quota. */
  evidence: ["read", "capture"],
  /** Daily counts and uptimes. */
  history: ["read"],
  alert: ["read"],
  /** Webhook endpoints and deliveries: `manage` creates, changes, deletes, rotates, tests and retries. */
  webhook: ["read", "manage"],
  /** Client report links; `schedule` sets or removes a share's scheduled report and sends its test. */
  share: ["read", "create", "revoke", "schedule"],
  /** How the organization's reports and PDFs look: name, accent colour, footer, logo. */
  branding: ["read", "update"],
} as const;

type Statements = typeof statements;
/** One permission request, e.g. `{ activityLog: ["read"] }`: every action listed is needed. */
export type Permission = { readonly [K in keyof Statements]?: readonly Statements[K][number][] };

export const ac = createAccessControl(statements);

/** The rights of `below` and then some: docs/spec/account-api.md's roles each include the one below. */
function including(below: Permission, more: Permission): Permission {
  const merged: Record<string, readonly string[]> = { ...below };
  for (const [resource, actions] of Object.entries(more)) merged[resource] = [...(merged[resource] ?? []), ...actions];
  return merged as Permission;
}

/** `viewer` reads everything of the organization, and manages only what is their own. */
const VIEWER_RIGHTS: Permission = {
  ac: ["read"],
  membership: ["read", "switch", "leave"],
  notification: ["read", "update"],
  apiDocument: ["read"],
  member: ["read"],
  invitation: ["read"],
  domainGroup: ["read"],
  savedAudit: ["read"],
  monitor: ["read"],
  link: ["read"],
  evidence: ["read"],
  history: ["read"],
  alert: ["read"],
  webhook: ["read"],
  share: ["read"],
  branding: ["read"],
};

/** `member` also creates, changes and deletes audits, domain groups, monitors and tracked links, runs checks, imports and exports. */
const MEMBER_RIGHTS = including(VIEWER_RIGHTS, {
  domainGroup: ["create", "update", "delete"],
  savedAudit: ["create", "delete", "export"],
  monitor: ["create", "update", "delete", "check"],
  link: ["create", "update", "delete", "import", "export"],
  evidence: ["capture"],
});

/** `admin` also runs the team (below admin), the organization's settings, webhooks, client reports (and their schedules) and branding, and reads the activity log. */
const ADMIN_RIGHTS = including(MEMBER_RIGHTS, {
  organization: ["update"],
  invitation: ["create", "cancel"],
  member: ["create", "update", "delete"],
  activityLog: ["read"],
  memberSecurity: ["read"],
  webhook: ["manage"],
  share: ["create", "revoke", "schedule"],
  branding: ["update"],
});

/** `owner` also reads the outbox, transfers ownership, decides whether two-factor sign-in is required and deletes the organization. */
const OWNER_RIGHTS = including(ADMIN_RIGHTS, {
  organization: ["delete"],
  outbox: ["read"],
  ownership: ["transfer"],
  signInPolicy: ["update"],
});

const role = (rights: Permission) => ac.newRole(rights as Parameters<typeof ac.newRole>[0]);

export const viewer = role(VIEWER_RIGHTS);
export const member = role(MEMBER_RIGHTS);
export const admin = role(ADMIN_RIGHTS);
export const owner = role(OWNER_RIGHTS);

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

/** Whether `role` has every permission asked for (Better Auth's authorize over our roles). */
export function can(role: RoleName, permission: Permission): boolean {
  return roles[role].authorize(permission as never).success;
}

/** The lowest role that has `permission` (roles include the ones below, so every higher role has it too); null if none. */
export function leastRole(permission: Permission): RoleName | null {
  return ROLE_NAMES.find((name) => can(name, permission)) ?? null;
}
