import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { testWebhook } from "@/lib/webhooks/deliveries";

// POST /api/account/webhooks/{id}/test — sends a `ping` now (one attempt, never retried) and answers the delivery once it is over.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: { operation: OPERATIONS.testWebhook, handler: (ctx, { params }) => testWebhook(ctx, params.id) },
});
