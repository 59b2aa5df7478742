import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { sendTestReport } from "@/lib/reports/send-test";

// POST /api/account/shares/{id}/send-test — the scheduled report's email, PDF attached, now and to the caller only.
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: { operation: OPERATIONS.sendShareTest, handler: (ctx, { params }) => sendTestReport(ctx, params.id) },
});
