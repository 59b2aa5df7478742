import { eq, or } from "drizzle-orm";
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
 * A share has its own token and, once it has had a schedule, the one its report emails carry
 * (lib/reports/report-link.ts); both open the same report.
 */
export async function openShare(runtime: Pick<Runtime, "db" | "now">, token: string): Promise<OpenShare | null> {
  if (!isTokenShaped(token)) return null;
  const hash = hashToken(token);
  const [found] = await runtime.db
    .select({ share, organizationName: organization.name })
    .from(share)
    .innerJoin(organization, eq(organization.id, share.organizationId))
    .where(or(eq(share.tokenHash, hash), eq(share.reportLinkHash, hash)))
    .limit(1);
  if (!found || !isActive(found.share, runtime.now())) return null;
  const stored = [found.share.tokenHash, found.share.reportLinkHash];
  if (!stored.some((candidate) => candidate !== null && sameHash(candidate, hash))) return null;
  return { share: found.share, organizationName: found.organizationName };
}
