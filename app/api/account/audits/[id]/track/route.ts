import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { findAudit } from "@/lib/account/audits";
import { trackFromAudit } from "@/lib/monitor/links";
import { trackSchema } from "@/lib/schemas/audits";

// POST /api/account/audits/{id}/track — track the link at {position} of a saved audit on the audit's page (member+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { audit: ["create"] },
    resource: (ctx, params) => findAudit(ctx, String(params.id)),
    handler: async (ctx, request, params) => {
      const { position } = await parseBody(request, trackSchema);
      return jsonResponse(await trackFromAudit(ctx, String(params.id), position), { status: 201 });
    },
  },
});
