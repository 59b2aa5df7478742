import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { checkNow } from "@/lib/monitor/check-now";

// POST /api/account/monitors/{id}/check — check the page now and answer the updated monitor (member+; 409 while a check runs).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { audit: ["run"] },
    handler: async (ctx, request, params) => jsonResponse(await checkNow(ctx, String(params.id), request.signal)),
  },
});
