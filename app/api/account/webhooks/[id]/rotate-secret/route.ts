import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { rotateWebhookSecret } from "@/lib/webhooks/endpoints";

// POST /api/account/webhooks/{id}/rotate-secret — a new signing secret, shown only now; the old one stops signing at once (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { webhook: ["manage"] },
    handler: async (ctx, _request, params) => jsonResponse(await rotateWebhookSecret(ctx, String(params.id))),
  },
});
