import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { listOutbox } from "@/lib/mail/outbox";

// GET /api/account/outbox — emails of the organization and of the owner, with their delivery status.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  GET: { operation: OPERATIONS.listOutbox, handler: (ctx, { query }) => listOutbox(ctx, query) },
});
