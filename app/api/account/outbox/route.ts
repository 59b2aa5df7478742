import { accountRoute, parseListQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { listOutbox } from "@/lib/mail/outbox";

// GET /api/account/outbox — emails of the organization and of the owner, with their delivery status (owners).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: {
    permission: { outbox: ["read"] },
    handler: async (ctx, request) => jsonResponse(await listOutbox(ctx, parseListQuery(request))),
  },
});
