import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { listMembers } from "@/lib/account/team";

// GET /api/account/members — the members of the active organization with their roles.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listMembers(ctx, parseListQuery(request))),
  },
});
