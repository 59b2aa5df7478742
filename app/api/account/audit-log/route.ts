import { accountRoute, parseListQuery } from "@/lib/api/account-route";
import { ApiError } from "@/lib/errors";
import { jsonResponse } from "@/lib/api/http";
import { BadCursorError, listAudit } from "@/lib/auth/audit";
import { database } from "@/lib/db";

// GET /api/account/audit-log — who did what and when in the active organization (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { auditLog: ["read"] },
    handler: async (ctx, request) => {
      const page = parseListQuery(request);
      try {
        return jsonResponse(await listAudit(database().db, ctx.organization.id, page));
      } catch (error) {
        if (error instanceof BadCursorError) throw new ApiError("INVALID_REQUEST", error.message);
        throw error;
      }
    },
  },
});
