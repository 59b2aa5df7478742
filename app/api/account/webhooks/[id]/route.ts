import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { updateWebhookSchema } from "@/lib/schemas/webhooks";
import { assertWebhookExists, deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/endpoints";

// GET /api/account/webhooks/{id} — one endpoint (viewer+).
// PATCH /api/account/webhooks/{id} — change url, types, enabled or description (admin+); re-enabling resets consecutiveFailures.
// DELETE /api/account/webhooks/{id} — remove it and its deliveries; pending ones stop (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) => jsonResponse(await getWebhook(ctx, String(params.id))),
  },
  PATCH: {
    permission: { webhook: ["manage"] },
    resource: (ctx, params) => assertWebhookExists(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await updateWebhook(ctx, String(params.id), await parseBody(request, updateWebhookSchema))),
  },
  DELETE: {
    permission: { webhook: ["manage"] },
    handler: async (ctx, _request, params) => {
      await deleteWebhook(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
