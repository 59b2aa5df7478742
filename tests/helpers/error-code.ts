import { ApiError } from "../../lib/errors";

/** What a promise settles to, as one comparable string: "resolved", an ApiError code, or "other: …". */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return error instanceof ApiError ? error.code : `other: ${String(error)}`;
  }
}
