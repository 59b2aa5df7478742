import { accountRoute, parseBody, parseListQuery } from "@/lib/auth/account-route";
import { siteOrigin } from "@/lib/http/origin";
import { jsonResponse } from "@/lib/http/response";
import { createShareSchema } from "@/lib/schemas/shares";
import { createShare, listShares } from "@/lib/shares/shares";

// GET /api/account/shares — the organization's share links, newest first, without their URLs (viewer+).
// POST /api/account/shares — a share link of a tag, a monitor or an audit (admin+); its URL is in this answer only.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listShares(ctx, parseListQuery(request))),
  },
  POST: {
    permission: { share: ["create"] },
    handler: async (ctx, request) => {
      const input = await parseBody(request, createShareSchema);
      return jsonResponse(await createShare(ctx, input, siteOrigin(request)), {
        status: 201,
        headers: { "Cache-Control": "no-store" },
      });
    },
  },
});
