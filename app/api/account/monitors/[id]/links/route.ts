import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { addLink } from "@/lib/monitor/links";
import { findMonitor } from "@/lib/monitor/monitors";
import { newLinkSchema } from "@/lib/schemas/monitors";

// POST /api/account/monitors/{id}/links — track one more link on the page (member+; 409 for a target already tracked there).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { audit: ["create"] },
    resource: (ctx, params) => findMonitor(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await addLink(ctx, String(params.id), await parseBody(request, newLinkSchema)), { status: 201 }),
  },
});
