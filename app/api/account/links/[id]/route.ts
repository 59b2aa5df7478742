import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { deleteLink, findLink, getLink, updateLink } from "@/lib/monitor/links";
import { linkPatchSchema } from "@/lib/schemas/monitors";

// GET /api/account/links/{id} — one tracked link.
// PATCH /api/account/links/{id} — target, match, expectations, notes, cost, expiresOn (member+; a new target or match resets it to pending).
// DELETE /api/account/links/{id} — stop tracking it (member+; audit-logged).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, _request, params) => jsonResponse(await getLink(ctx, String(params.id))),
  },
  PATCH: {
    permission: { audit: ["update"] },
    resource: (ctx, params) => findLink(ctx, String(params.id)),
    handler: async (ctx, request, params) =>
      jsonResponse(await updateLink(ctx, String(params.id), await parseBody(request, linkPatchSchema))),
  },
  DELETE: {
    permission: { audit: ["delete"] },
    handler: async (ctx, _request, params) => {
      await deleteLink(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
