import { z } from "zod";
import { idField, isoTime } from "./common";

/** The caller, the team, its members and invitations (docs/spec/account-api.md "Who and what"): requests, answers. */

export const ROLES = ["viewer", "member", "admin", "owner"] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const inviteSchema = z.strictObject({
  email: z.email().max(320),
  role: z.enum(["viewer", "member", "admin"]).default("member"),
});
export const roleChangeSchema = z.strictObject({ role: RoleSchema });
export const transferSchema = z.strictObject({ memberId: idField });
export const activeOrganizationSchema = z.strictObject({ organizationId: idField });
/** PATCH /api/account/organization: what the owner may change of the organization here. */
export const organizationPatchSchema = z.strictObject({ requireTwoFactor: z.boolean() });

const OrganizationSchema = z.strictObject({ id: z.string(), name: z.string(), slug: z.string() });
/** An organization of the user with the user's role there (also the answer of switching to it). */
export const MembershipSchema = OrganizationSchema.extend({ role: z.string() });

/** The active organization with what it asks of its members' sign-in (also the answer of PATCH /organization). */
export const OrganizationSettingsSchema = OrganizationSchema.extend({ requireTwoFactor: z.boolean() });
export type OrganizationSettings = z.infer<typeof OrganizationSettingsSchema>;

/** GET /api/account/me. */
export const MeSchema = z.strictObject({
  user: z.strictObject({ id: z.string(), email: z.string(), name: z.string(), twoFactorEnabled: z.boolean() }),
  organization: OrganizationSettingsSchema,
  role: RoleSchema,
  organizations: z.array(MembershipSchema),
});
export type Me = z.infer<typeof MeSchema>;

export const MemberSchema = z.strictObject({
  id: z.string(),
  role: RoleSchema,
  createdAt: isoTime,
  user: z.strictObject({ id: z.string(), email: z.string(), name: z.string() }),
  /** Whether the member has two-factor sign-in on: shown to admins and owners only (absent for the others). */
  twoFactorEnabled: z.boolean().optional(),
});
export type Member = z.infer<typeof MemberSchema>;

export const InvitationSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  role: RoleSchema,
  status: z.string(),
  expiresAt: isoTime,
  createdAt: isoTime,
});
export type Invitation = z.infer<typeof InvitationSchema>;

/**
 * POST /api/auth/organization/accept-invitation (Better Auth's own answer): the team joined, which the app
 * makes the active one. Only these fields are read; the rest of the answer is left out.
 */
export const AcceptedInvitationSchema = z.object({
  invitation: z.object({ organizationId: z.string() }).partial().nullish(),
  member: z.object({ organizationId: z.string() }).partial().nullish(),
});
