import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { switchOrganization } from "@/lib/account/team";

// PUT /api/account/active-organization — switch the session to another of the user's organizations.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  PUT: {
    operation: OPERATIONS.switchOrganization,
    handler: (ctx, { body }) => switchOrganization(ctx, body.organizationId),
  },
});
