import { accountRoute } from "@/lib/auth/account-route";
import { OPERATIONS } from "@/lib/schemas/operations";
import { importLinks } from "@/lib/monitor/import";

// POST /api/account/links/import — tracked links from CSV (text/csv, ≤ 5,000 rows and 5 MiB; ?dryRun=1 validates only).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    operation: OPERATIONS.importLinks,
    handler: (ctx, { query, body }) =>
      importLinks(ctx, body, { dryRun: query.dryRun === "1" || query.dryRun === "true" }),
  },
});
