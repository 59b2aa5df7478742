import { accountRoute } from "@/lib/auth/account-route";
import { leave } from "@/lib/account/team";

// POST /api/account/organization/leave — leave the active organization (the last owner cannot).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { account: ["read"] },
    handler: async (ctx) => {
      await leave(ctx);
      return new Response(null, { status: 204 });
    },
  },
});
