import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { createWebhook, listWebhooks } from "@/lib/webhooks/endpoints";

// GET /api/account/webhooks — the organization's webhook endpoints, oldest first.
// POST /api/account/webhooks — a new endpoint {url, kind?, types?, description?}; 201 with its secret, shown only now.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listWebhooks, handler: (ctx, { query }) => listWebhooks(ctx, query) },
  POST: { operation: OPERATIONS.createWebhook, handler: (ctx, { body }) => createWebhook(ctx, body) },
});
