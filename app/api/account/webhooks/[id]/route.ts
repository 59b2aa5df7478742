import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { assertWebhookExists, deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/endpoints";

// GET /api/account/webhooks/{id} — one endpoint.
// PATCH /api/account/webhooks/{id} — change url, types, enabled or description; re-enabling resets consecutiveFailures.
// DELETE /api/account/webhooks/{id} — remove it and its deliveries; pending ones stop.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getWebhook, handler: (ctx, { params }) => getWebhook(ctx, params.id) },
  PATCH: {
    operation: OPERATIONS.updateWebhook,
    resource: (ctx, { id }) => assertWebhookExists(ctx, id),
    handler: (ctx, { params, body }) => updateWebhook(ctx, params.id, body),
  },
  DELETE: { operation: OPERATIONS.deleteWebhook, handler: (ctx, { params }) => deleteWebhook(ctx, params.id) },
});
