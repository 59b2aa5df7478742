import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { deleteAudit, findAudit, getAudit } from "@/lib/account/audits";

// GET /api/account/audits/{id} — one audit with its links; ?include=snapshot adds sanitizedHtml.
// DELETE /api/account/audits/{id} — delete it and its links.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    operation: OPERATIONS.getAudit,
    resource: (ctx, { id }) => findAudit(ctx, id),
    handler: (ctx, { params, query }) => getAudit(ctx, params.id, { snapshot: query.include === "snapshot" }),
  },
  DELETE: { operation: OPERATIONS.deleteAudit, handler: (ctx, { params }) => deleteAudit(ctx, params.id) },
});
