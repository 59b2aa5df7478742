import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { changeRole, findMember, removeMember } from "@/lib/account/team";
import { roleChangeSchema } from "@/lib/schemas/team";

// PATCH /api/account/members/{id} — change a member's role (admin+; owners manage admins and owners).
// DELETE /api/account/members/{id} — remove a member (admin+; never the last owner).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  PATCH: {
    permission: { member: ["update"] },
    resource: (ctx, params) => findMember(ctx, String(params.id)),
    handler: async (ctx, request, params) => {
      const { role } = await parseBody(request, roleChangeSchema);
      return jsonResponse(await changeRole(ctx, String(params.id), role));
    },
  },
  DELETE: {
    permission: { member: ["delete"] },
    handler: async (ctx, _request, params) => {
      await removeMember(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
