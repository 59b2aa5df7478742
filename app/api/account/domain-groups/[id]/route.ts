import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { assertGroupExists, deleteGroup, getGroup, updateGroup } from "@/lib/account/domain-groups";

// GET /api/account/domain-groups/{id} — one group.
// PATCH /api/account/domain-groups/{id} — rename it or replace its domains.
// DELETE /api/account/domain-groups/{id} — remove it; audits already saved keep their group names.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.getDomainGroup, handler: (ctx, { params }) => getGroup(ctx, params.id) },
  PATCH: {
    operation: OPERATIONS.updateDomainGroup,
    resource: (ctx, { id }) => assertGroupExists(ctx, id),
    handler: (ctx, { params, body }) => updateGroup(ctx, params.id, body),
  },
  DELETE: { operation: OPERATIONS.deleteDomainGroup, handler: (ctx, { params }) => deleteGroup(ctx, params.id) },
});
