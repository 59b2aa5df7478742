import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { deleteAudit, findAudit, getAudit } from "@/lib/account/audits";
import { getAuditQuerySchema } from "@/lib/schemas/audits";

// GET /api/account/audits/{id} — one audit with its links; ?include=snapshot adds sanitizedHtml (viewer+).
// DELETE /api/account/audits/{id} — delete it and its links (member+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request, params) => {
      await findAudit(ctx, String(params.id));
      const { include } = parseQuery(request, getAuditQuerySchema);
      return jsonResponse(await getAudit(ctx, String(params.id), { snapshot: include === "snapshot" }));
    },
  },
  DELETE: {
    permission: { audit: ["delete"] },
    handler: async (ctx, _request, params) => {
      await deleteAudit(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
