import { accountRoute, parseBody } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { transferOwnership } from "@/lib/account/team";
import { transferSchema } from "@/lib/schemas/team";

// POST /api/account/organization/transfer — make another member owner; the caller becomes admin (owner).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { ownership: ["transfer"] },
    handler: async (ctx, request) => {
      const { memberId } = await parseBody(request, transferSchema);
      return jsonResponse(await transferOwnership(ctx, memberId));
    },
  },
});
