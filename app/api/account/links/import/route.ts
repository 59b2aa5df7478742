import { accountRoute, parseQuery } from "@/lib/auth/account-route";
import { jsonResponse } from "@/lib/http/response";
import { importLinks, readCsvBody } from "@/lib/monitor/import";
import { importQuerySchema } from "@/lib/schemas/monitors";

// POST /api/account/links/import — tracked links from CSV (text/csv, ≤ 5,000 rows and 5 MiB; ?dryRun=1 validates only) (member+).
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = accountRoute({
  POST: {
    permission: { audit: ["import"] },
    handler: async (ctx, request) => {
      const { dryRun } = parseQuery(
        request,
        importQuerySchema,
        "The only parameter is dryRun=1 (validate without importing).",
      );
      const text = await readCsvBody(request);
      return jsonResponse(await importLinks(ctx, text, { dryRun: dryRun === "1" || dryRun === "true" }));
    },
  },
});
