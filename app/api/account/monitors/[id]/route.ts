import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { deleteMonitor, findMonitor, getMonitor, updateMonitor } from "@/lib/monitor/monitors";
import { monitorPatchSchema } from "@/lib/schemas/monitors";

// GET /api/account/monitors/{id} — one monitored page with its tracked links.
// PATCH /api/account/monitors/{id} — intervalMinutes, paused, tags (member+).
// DELETE /api/account/monitors/{id} — the page, its links and history (member+; audit-logged).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) => jsonResponse(await getMonitor(ctx, String(params.id))),
  },
  PATCH: {
    permission: { audit: ["update"] },
    resource: (ctx, params) => findMonitor(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await updateMonitor(ctx, String(params.id), await parseBody(request, monitorPatchSchema))),
  },
  DELETE: {
    permission: { audit: ["delete"] },
    handler: async (ctx, _request, params) => {
      await deleteMonitor(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
