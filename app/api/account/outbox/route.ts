import { accountRoute, parseListQuery } from "@/lib/api/account-route";
import { jsonResponse } from "@/lib/api/http";
import { database } from "@/lib/db";
import { listOutbox } from "@/lib/mail/outbox";

// GET /api/account/outbox — emails of the organization and of the owner, with their delivery status (owners).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { outbox: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listOutbox(database().db, { organizationId: ctx.organization.id, userId: ctx.user.id, email: ctx.user.email }, parseListQuery(request))),
  },
});
