import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { deleteLink, findLink, getLink, updateLink } from "@/lib/monitor/links";

// GET /api/account/links/{id} — one tracked link.
// PATCH /api/account/links/{id} — target, match, expectations, notes, cost, expiresOn (a new target or match resets it to pending).
// DELETE /api/account/links/{id} — stop tracking it (in the activity log).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getLink, handler: (ctx, { params }) => getLink(ctx, params.id) },
  PATCH: {
    operation: OPERATIONS.updateLink,
    resource: (ctx, { id }) => findLink(ctx, id),
    handler: (ctx, { params, body }) => updateLink(ctx, params.id, body),
  },
  DELETE: { operation: OPERATIONS.deleteLink, handler: (ctx, { params }) => deleteLink(ctx, params.id) },
});
