import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { testWebhook } from "@/lib/webhooks/deliveries";

// POST /api/account/webhooks/{id}/test — sends a `ping` now (one attempt, never retried) and answers the delivery once it is over (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { webhook: ["manage"] },
    handler: async (ctx, _request, params) => jsonResponse(await testWebhook(ctx, String(params.id))),
  },
});
