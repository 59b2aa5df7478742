import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { cancelInvitation } from "@/lib/account/team";

// DELETE /api/account/invitations/{id} — cancel a pending invitation.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  DELETE: { operation: OPERATIONS.cancelInvitation, handler: (ctx, { params }) => cancelInvitation(ctx, params.id) },
});
