import { and, eq, gt } from "drizzle-orm";
import type { Runtime } from "../db/runtime";
import * as schema from "../db/schema";
import { getAuth } from "./index";
import { isInvitationToken } from "./invitation-link";

const PROOF_PATHS = new Set(["/organization/accept-invitation", "/organization/reject-invitation"]);

/**
 * Before Better Auth accepts or rejects an invitation: when the body's `token` is the link's token of a
 * pending invitation addressed to the signed-in user, that user's address is confirmed. Anything else
 * changes nothing, and Better Auth answers (403 unless the address was already confirmed and is the
 * invited one). `body` is the request body parsed once by the caller.
 */
export async function proveInvitedAddress(
  runtime: Runtime,
  path: string,
  request: Request,
  body: unknown,
): Promise<void> {
  if (!PROOF_PATHS.has(path) || typeof body !== "object" || body === null) return;
  const { invitationId, token } = body as Record<string, unknown>;
  if (typeof invitationId !== "string" || typeof token !== "string" || token === "" || token.length > 100) return;
  const found = await getAuth(request).api.getSession({ headers: request.headers });
  if (!found || found.user.emailVerified) return;
  const { db, now } = runtime;
  const [invitation] = await db
    .select({ id: schema.invitation.id, email: schema.invitation.email })
    .from(schema.invitation)
    .where(
      and(
        eq(schema.invitation.id, invitationId),
        eq(schema.invitation.status, "pending"),
        gt(schema.invitation.expiresAt, now()),
      ),
    )
    .limit(1);
  if (!invitation || invitation.email.toLowerCase() !== found.user.email.toLowerCase()) return;
  if (!isInvitationToken(token, invitation.id, invitation.email)) return;
  await db.update(schema.user).set({ emailVerified: true, updatedAt: now() }).where(eq(schema.user.id, found.user.id));
}
