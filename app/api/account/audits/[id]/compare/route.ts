import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { compareAudits } from "@/lib/account/audit-compare";
import { compareQuerySchema } from "@/lib/schemas/audits";
import { findAudit } from "@/lib/account/audits";

// GET /api/account/audits/{id}/compare?with={otherId} — links added, removed and changed since the other audit (viewer+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request, params) => {
      await findAudit(ctx, String(params.id));
      const query = parseQuery(request, compareQuerySchema);
      return jsonResponse(await compareAudits(ctx, String(params.id), query.with));
    },
  },
});
