import { eq } from "drizzle-orm";
import type { Runtime } from "../db/runtime";
import { organization, share } from "../db/schema";
import type { ShareRow } from "./shares";
import { hashToken, isTokenShaped, sameHash } from "./token";

/** An active share and the name of the organization that made it. */
export interface OpenShare {
  share: ShareRow;
  organizationName: string;
}

/** Whether a share may be shown at `now`: not revoked, and not past its expiry. */
export function isActive(row: Pick<ShareRow, "revokedAt" | "expiresAt">, now: Date): boolean {
  return !row.revokedAt && (!row.expiresAt || row.expiresAt.getTime() > now.getTime());
}

/**
 * The share a token opens, or null for every token that opens nothing: the wrong shape (truncated,
 * extended, other characters), unknown, revoked or expired. Callers answer all of them with the same 404.
 */
export async function openShare(runtime: Pick<Runtime, "db" | "now">, token: string): Promise<OpenShare | null> {
  if (!isTokenShaped(token)) return null;
  const hash = hashToken(token);
  const [found] = await runtime.db
    .select({ share, organizationName: organization.name })
    .from(share)
    .innerJoin(organization, eq(organization.id, share.organizationId))
    .where(eq(share.tokenHash, hash))
    .limit(1);
  if (!found || !sameHash(found.share.tokenHash, hash) || !isActive(found.share, runtime.now())) return null;
  return { share: found.share, organizationName: found.organizationName };
}
