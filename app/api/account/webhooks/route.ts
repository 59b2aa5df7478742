import { accountRoute, parseBody, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { createWebhookSchema } from "@/lib/schemas/webhooks";
import { createWebhook, listWebhooks } from "@/lib/webhooks/endpoints";

// GET /api/account/webhooks — the organization's webhook endpoints, oldest first (viewer+).
// POST /api/account/webhooks — a new endpoint {url, kind?, types?, description?} (admin+); 201 with its secret, shown only now.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listWebhooks(ctx, parseListQuery(request))),
  },
  POST: {
    permission: { webhook: ["manage"] },
    handler: async (ctx, request) =>
      jsonResponse(await createWebhook(ctx, await parseBody(request, createWebhookSchema)), { status: 201 }),
  },
});
