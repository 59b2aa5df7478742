import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { siteOrigin } from "@/lib/http/origin";
import { createShare, listShares } from "@/lib/shares/shares";

// GET /api/account/shares — the organization's share links, newest first, without their URLs.
// POST /api/account/shares — a share link of a tag, a monitor or an audit; its URL is in this answer only.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listShares, handler: (ctx, { query }) => listShares(ctx, query) },
  POST: {
    operation: OPERATIONS.createShare,
    handler: async (ctx, { request, body }) =>
      withHeaders(await createShare(ctx, body, siteOrigin(request)), { "Cache-Control": "no-store" }),
  },
});
