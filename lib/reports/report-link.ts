import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { share } from "../db/schema";
import { hashToken } from "../shares/token";

/**
 * The share link a scheduled report email carries. A share's own token is stored only as a hash and
 * shown once, so an email written weeks later cannot hold it. Instead each scheduled share gets a second
 * token that opens the same /r/ report: HMAC-SHA256 of the share's id under the auth secret (its own
 * label), cut to 24 bytes, as 32 base64url characters like every share token. Nothing secret is stored:
 * the share row keeps the token's SHA-256 (`report_link_hash`) so /r/ can find it, and the sender derives
 * the token again for each email. It opens the report exactly as long as the share does (revoked or
 * expired: 404, like the share's own link). A new auth secret makes a new token; the hash is brought up
 * to date before the next email, and the links in older emails stop working (as sessions do).
 */

const LABEL = "linklens-report-link:v1:";

export function reportLinkToken(authSecret: string, shareId: string): string {
  return createHmac("sha256", authSecret).update(`${LABEL}${shareId}`).digest().subarray(0, 24).toString("base64url");
}

/** The token of the share's emailed link, its hash stored (or brought up to date) first. */
export async function ensureReportLink(
  db: Pick<Db, "update">,
  shareId: string,
  authSecret: string,
  storedHash: string | null,
): Promise<string> {
  const token = reportLinkToken(authSecret, shareId);
  const hash = hashToken(token);
  if (storedHash !== hash) await db.update(share).set({ reportLinkHash: hash }).where(eq(share.id, shareId));
  return token;
}
