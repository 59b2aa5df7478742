import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listMembers } from "@/lib/account/team";

// GET /api/account/members — the members of the active organization with their roles.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listMembers, handler: (ctx, { query }) => listMembers(ctx, query) },
});
