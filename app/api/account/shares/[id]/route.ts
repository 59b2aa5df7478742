import { accountRoute } from "@/lib/auth/account-route";
import { revokeShare } from "@/lib/shares/shares";

// DELETE /api/account/shares/{id} — revoke a share link: its page answers 404 from then on (admin+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  DELETE: {
    permission: { share: ["revoke"] },
    handler: async (ctx, _request, params) => {
      await revokeShare(ctx, String(params.id));
      return new Response(null, { status: 204 });
    },
  },
});
