import { ApiError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/response";

// Every method on every unknown /api/ path — 404 NOT_FOUND as an Error body, never an HTML page.
function notFound(request: Request): Response {
  return errorResponse(new ApiError("NOT_FOUND", "No public operation lives at this path."), request);
}

export {
  notFound as GET,
  notFound as HEAD,
  notFound as POST,
  notFound as PUT,
  notFound as PATCH,
  notFound as DELETE,
  notFound as OPTIONS,
};
