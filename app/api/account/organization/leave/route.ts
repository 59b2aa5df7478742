import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { leave } from "@/lib/account/team";

// POST /api/account/organization/leave — leave the active organization (the last owner cannot).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: { operation: OPERATIONS.leaveOrganization, handler: (ctx) => leave(ctx) },
});
