import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { deleteMonitor, findMonitor, getMonitor, updateMonitor } from "@/lib/monitor/monitors";

// GET /api/account/monitors/{id} — one monitored page with its tracked links.
// PATCH /api/account/monitors/{id} — intervalMinutes, paused, tags.
// DELETE /api/account/monitors/{id} — the page, its links and history (in the activity log).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getMonitor, handler: (ctx, { params }) => getMonitor(ctx, params.id) },
  PATCH: {
    operation: OPERATIONS.updateMonitor,
    resource: (ctx, { id }) => findMonitor(ctx, id),
    handler: (ctx, { params, body }) => updateMonitor(ctx, params.id, body),
  },
  DELETE: { operation: OPERATIONS.deleteMonitor, handler: (ctx, { params }) => deleteMonitor(ctx, params.id) },
});
