import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { assertWebhookExists } from "@/lib/webhooks/endpoints";

// GET /api/account/webhooks/{id}/deliveries — the endpoint's deliveries, newest first, with their last answer (viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    resource: (ctx, params) => assertWebhookExists(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await listDeliveries(ctx, String(params.id), parseListQuery(request))),
  },
});
