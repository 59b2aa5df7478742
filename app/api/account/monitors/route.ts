import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { createMonitor, listMonitors } from "@/lib/monitor/monitors";

// GET /api/account/monitors — the organization's monitored pages, newest first, each with its tracked links.
// POST /api/account/monitors — monitor a page {url, intervalMinutes?, tags?, links?}; due at once.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listMonitors, handler: (ctx, { query }) => listMonitors(ctx, query) },
  POST: { operation: OPERATIONS.createMonitor, handler: (ctx, { body }) => createMonitor(ctx, body) },
});
