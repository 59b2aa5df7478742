import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { rotateWebhookSecret } from "@/lib/webhooks/endpoints";

// POST /api/account/webhooks/{id}/rotate-secret — a new signing secret, shown only now; the old one stops signing at once.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.rotateWebhookSecret,
    handler: (ctx, { params }) => rotateWebhookSecret(ctx, params.id),
  },
});
