import { accountRoute, withHeaders } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { requestIdOf } from "@/lib/http/request-id";
import { rerunAudit } from "@/lib/account/audits";

// POST /api/account/audits/{id}/rerun — a new audit of the same URL or stored paste, with today's groups.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.rerunAudit,
    handler: async (ctx, { request, params }) => {
      const { audit, headers } = await rerunAudit(ctx, params.id, {
        requestId: requestIdOf(request),
        signal: request.signal,
      });
      return withHeaders(audit, headers);
    },
  },
});
