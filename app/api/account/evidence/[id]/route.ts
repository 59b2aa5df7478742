import { accountRoute } from "@/lib/auth/account-route";
import { getEvidence } from "@/lib/evidence/read";
import { jsonResponse } from "@/lib/http/response";

// GET /api/account/evidence/{id} — one evidence record (viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) =>
      jsonResponse(await getEvidence(ctx, String(params.id)), { headers: { "Cache-Control": "private, no-store" } }),
  },
});
