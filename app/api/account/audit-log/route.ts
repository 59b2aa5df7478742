import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { listAudit } from "@/lib/auth/audit";

// GET /api/account/audit-log — who did what and when in the active organization (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { auditLog: ["read"] },
    handler: async (ctx, request) => {
      return jsonResponse(await listAudit(ctx, parseListQuery(request)));
    },
  },
});
