import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { siteOrigin } from "@/lib/http/origin";
import { invite, listInvitations } from "@/lib/account/team";

// GET /api/account/invitations — pending invitations of the active organization.
// POST /api/account/invitations — invite an email address with a role (admins invite below admin).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listInvitations, handler: (ctx, { query }) => listInvitations(ctx, query) },
  POST: { operation: OPERATIONS.invite, handler: (ctx, { request, body }) => invite(ctx, body, siteOrigin(request)) },
});
