import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { changeRole, findMember, removeMember } from "@/lib/account/team";

// PATCH /api/account/members/{id} — change a member's role (owners manage admins and owners).
// DELETE /api/account/members/{id} — remove a member (never the last owner).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  PATCH: {
    operation: OPERATIONS.changeRole,
    resource: (ctx, { id }) => findMember(ctx, id),
    handler: (ctx, { params, body }) => changeRole(ctx, params.id, body.role),
  },
  DELETE: { operation: OPERATIONS.removeMember, handler: (ctx, { params }) => removeMember(ctx, params.id) },
});
