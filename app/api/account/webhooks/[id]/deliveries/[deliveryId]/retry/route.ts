import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { retryDelivery } from "@/lib/webhooks/deliveries";

// POST /api/account/webhooks/{id}/deliveries/{deliveryId}/retry — re-sends a failed or pending delivery now (same webhook-id); answers it once the attempt is over.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.retryWebhookDelivery,
    handler: (ctx, { params }) => retryDelivery(ctx, params.id, params.deliveryId),
  },
});
