import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { revokeShare } from "@/lib/shares/shares";

// DELETE /api/account/shares/{id} — revoke a share link: its page answers 404 from then on.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  DELETE: { operation: OPERATIONS.revokeShare, handler: (ctx, { params }) => revokeShare(ctx, params.id) },
});
