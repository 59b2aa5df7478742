import { buildProduct } from "@/lib/api/discovery";
import { jsonResponse, readOnlyRoute } from "@/lib/http/response";
import { siteOrigin } from "@/lib/http/origin";

// GET /api/v1/product — product facts for people and agents.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute(
  (request) => jsonResponse(buildProduct(siteOrigin(request))),
  { cors: true },
);
