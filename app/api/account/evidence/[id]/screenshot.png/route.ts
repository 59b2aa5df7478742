import { accountRoute } from "@/lib/auth/account-route";
import { screenshotResponse } from "@/lib/evidence/files";

// GET /api/account/evidence/{id}/screenshot.png — the record's screenshot, 1280 px wide (image/png; viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) => screenshotResponse(ctx, String(params.id)),
  },
});
