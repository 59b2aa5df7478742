import { GET as me } from "@/app/api/account/me/route";
import { POST as invite } from "@/app/api/account/invitations/route";
import { PUT as switchOrg } from "@/app/api/account/active-organization/route";
import type { Database } from "@/lib/db";
import { auth, call, signUp, verifyEmail } from "./harness";

export interface Person {
  email: string;
  cookie: string;
  userId: string;
  memberId?: string;
}

export interface Team {
  organizationId: string;
  owner: Person;
  admin: Person;
  member: Person;
  viewer: Person;
}

async function whoAmI(cookie: string) {
  const result = await call(me, "GET", "/api/account/me", { cookie });
  if (result.status !== 200) throw new Error(`me: ${result.status} ${result.text}`);
  return result.json as { user: { id: string }; organization: { id: string }; role: string };
}

/** An owner invites `email` with `role`; the invitee signs up, accepts and switches to the organization. */
export async function join(
  database: Database,
  ownerCookie: string,
  organizationId: string,
  email: string,
  role: "viewer" | "member" | "admin",
): Promise<Person> {
  const invited = await call(invite, "POST", "/api/account/invitations", {
    cookie: ownerCookie,
    body: { email, role },
  });
  if (invited.status !== 201) throw new Error(`invite: ${invited.status} ${invited.text}`);
  const cookie = await signUp(email);
  await verifyEmail(database, email);
  const accepted = await auth("POST", "/organization/accept-invitation", {
    cookie,
    body: { invitationId: (invited.json as { id: string }).id },
  });
  if (accepted.status !== 200) throw new Error(`accept: ${accepted.status} ${accepted.text}`);
  const switched = await call(switchOrg, "PUT", "/api/account/active-organization", {
    cookie,
    body: { organizationId },
  });
  if (switched.status !== 200) throw new Error(`switch: ${switched.status} ${switched.text}`);
  const who = await whoAmI(cookie);
  return { email, cookie, userId: who.user.id };
}

/** An owner alone in the organization sign-up made for them (another tenant beside a team). */
export async function makeSoloOwner(prefix: string): Promise<Person & { organizationId: string }> {
  const email = `${prefix}-owner@example.com`;
  const cookie = await signUp(email);
  const who = await whoAmI(cookie);
  return { email, cookie, userId: who.user.id, organizationId: who.organization.id };
}

/** A team of four, one of each role, all active in the owner's organization. */
export async function makeTeam(database: Database, prefix: string): Promise<Team> {
  const ownerCookie = await signUp(`${prefix}-owner@example.com`);
  const who = await whoAmI(ownerCookie);
  const organizationId = who.organization.id;
  const owner: Person = { email: `${prefix}-owner@example.com`, cookie: ownerCookie, userId: who.user.id };
  const admin = await join(database, ownerCookie, organizationId, `${prefix}-admin@example.com`, "admin");
  const member = await join(database, ownerCookie, organizationId, `${prefix}-member@example.com`, "member");
  const viewer = await join(database, ownerCookie, organizationId, `${prefix}-viewer@example.com`, "viewer");
  const { GET: members } = await import("@/app/api/account/members/route");
  const list = await call(members, "GET", "/api/account/members", { cookie: ownerCookie });
  const items = (list.json as { items: Array<{ id: string; user: { email: string } }> }).items;
  for (const person of [owner, admin, member, viewer])
    person.memberId = items.find((i) => i.user.email === person.email)?.id;
  return { organizationId, owner, admin, member, viewer };
}
