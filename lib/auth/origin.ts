import { ApiError } from "../errors";
import { siteOrigin } from "../http/origin";

const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The origin rule of docs/spec/account-api.md for account routes and /api/auth/*: a mutation whose Origin is
 * present and not the site's, or that has no Origin but `Sec-Fetch-Site: cross-site`, is refused.
 * No Origin and no Sec-Fetch-Site is a non-browser client with its own cookie: allowed.
 */
export function assertSameOrigin(request: Request): void {
  if (!MUTATIONS.has(request.method)) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    if (origin.toLowerCase() !== siteOrigin(request).toLowerCase()) {
      throw new ApiError("INVALID_ORIGIN", "This change was sent from another site.");
    }
    return;
  }
  if (request.headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") {
    throw new ApiError("INVALID_ORIGIN", "This change was sent from another site.");
  }
}
