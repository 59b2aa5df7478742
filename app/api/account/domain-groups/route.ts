import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { createGroup, listGroups } from "@/lib/account/domain-groups";

// GET /api/account/domain-groups — the organization's domain groups, oldest first.
// POST /api/account/domain-groups — a new group {name, domains}; 409 for a taken name or site.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listDomainGroups, handler: (ctx, { query }) => listGroups(ctx, query) },
  POST: { operation: OPERATIONS.createDomainGroup, handler: (ctx, { body }) => createGroup(ctx, body) },
});
