import { accountRoute, parseBody, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { siteOrigin } from "@/lib/http/origin";
import { invite, listInvitations } from "@/lib/account/team";
import { inviteSchema } from "@/lib/schemas/team";

// GET /api/account/invitations — pending invitations of the active organization.
// POST /api/account/invitations — invite an email address with a role (admin+; admins invite below admin).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { account: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listInvitations(ctx, parseListQuery(request))),
  },
  POST: {
    permission: { invitation: ["create"] },
    handler: async (ctx, request) => {
      const input = await parseBody(request, inviteSchema);
      return jsonResponse(await invite(ctx, input, siteOrigin(request)), { status: 201 });
    },
  },
});
