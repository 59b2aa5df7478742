import { buildHealth } from "@/lib/api/discovery";
import { jsonResponse, readOnlyRoute } from "@/lib/http/response";

// GET /api/v1/health — liveness only: no customer data, no render credit, no I/O.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute(
  () => jsonResponse(buildHealth(), { headers: { "Cache-Control": "no-store" } }),
  { cors: true },
);
