import { accountRoute } from "@/lib/auth/account-route";
import { cancelInvitation } from "@/lib/account/team";

// DELETE /api/account/invitations/{id} — cancel a pending invitation (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  DELETE: {
    permission: { invitation: ["cancel"] },
    handler: async (ctx, _request, params) => {
      await cancelInvitation(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
