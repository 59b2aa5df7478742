import { accountRoute, parseBody, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { createMonitor, listMonitors } from "@/lib/monitor/monitors";
import { newMonitorSchema } from "@/lib/schemas/monitors";

// GET /api/account/monitors — the organization's monitored pages, newest first, each with its tracked links.
// POST /api/account/monitors — monitor a page {url, intervalMinutes?, tags?, links?} (member+); due at once.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listMonitors(ctx, parseListQuery(request))),
  },
  POST: {
    permission: { audit: ["create"] },
    handler: async (ctx, request) =>
      jsonResponse(await createMonitor(ctx, await parseBody(request, newMonitorSchema, 512 * 1024)), { status: 201 }),
  },
});
