import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { retryDelivery } from "@/lib/webhooks/deliveries";

// POST /api/account/webhooks/{id}/deliveries/{deliveryId}/retry — re-sends a failed or pending delivery now (same webhook-id); answers it once the attempt is over (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { webhook: ["manage"] },
    handler: async (ctx, _request, params) =>
      jsonResponse(await retryDelivery(ctx, String(params.id), String(params.deliveryId))),
  },
});
