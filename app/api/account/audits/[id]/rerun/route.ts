import { accountRoute } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { requestIdOf } from "@/lib/http/request-id";
import { rerunAudit } from "@/lib/account/audits";

// POST /api/account/audits/{id}/rerun — a new audit of the same URL or stored paste, with today's groups (member+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { audit: ["create"] },
    handler: async (ctx, request, params) => {
      const { audit, headers } = await rerunAudit(ctx, String(params.id), {
        requestId: requestIdOf(request),
        signal: request.signal,
      });
      return jsonResponse(audit, { status: 201, headers });
    },
  },
});
