import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { transferOwnership } from "@/lib/account/team";

// POST /api/account/organization/transfer — make another member owner; the caller becomes admin.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.transferOwnership,
    handler: (ctx, { body }) => transferOwnership(ctx, body.memberId),
  },
});
