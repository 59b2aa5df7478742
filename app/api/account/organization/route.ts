import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { updateOrganization } from "@/lib/account/organization-settings";

// PATCH /api/account/organization — require two-factor sign-in of every member, or stop requiring it (owner).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  PATCH: { operation: OPERATIONS.updateOrganization, handler: (ctx, { body }) => updateOrganization(ctx, body) },
});
