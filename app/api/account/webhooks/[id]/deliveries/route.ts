import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { assertWebhookExists } from "@/lib/webhooks/endpoints";

// GET /api/account/webhooks/{id}/deliveries — the endpoint's deliveries, newest first, with their last answer.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.listWebhookDeliveries,
    resource: (ctx, { id }) => assertWebhookExists(ctx, id),
    handler: (ctx, { params, query }) => listDeliveries(ctx, params.id, query),
  },
});
