import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ApiError } from "../errors";
import { processRuntime } from "../db/runtime";
import { authorize, type AccountContext, type AuthorizeOptions } from "./guard";
import { getAuth } from "./index";

/** Where a member whose team requires two-factor sign-in, and who has not turned it on, is sent: its enrolment. */
export const ENROLMENT_PAGE = "/app/settings?twoFactor=required#security";

/** The request a page is served for, as the guard reads it: the session cookie and the site's origin. */
async function pageRequest(path: string): Promise<Request> {
  const incoming = await headers();
  const forwarded = new Headers();
  for (const name of ["cookie", "host", "x-forwarded-host", "x-forwarded-proto"]) {
    const value = incoming.get(name);
    if (value) forwarded.set(name, value);
  }
  return new Request(`http://${incoming.get("host") ?? "localhost"}${path}`, { headers: forwarded });
}

/**
 * The signed-in pages' view of the guard: the same checks as the account routes (a GET, so no origin
 * step), and a redirect to /sign-in instead of a 401. A team that requires two-factor sign-in sends a
 * member without it to enrol (Settings → Security), unless the page is one that serves them
 * (`twoFactorExempt`: the frame, Settings, an invitation).
 */
export async function pageContext(path: string, options: AuthorizeOptions = {}): Promise<AccountContext> {
  try {
    return await authorize(await pageRequest(path), { membership: ["read"] }, processRuntime(), options);
  } catch (error) {
    if (error instanceof ApiError && error.code === "TWO_FACTOR_REQUIRED") redirect(ENROLMENT_PAGE);
    if (error instanceof ApiError && (error.status === 401 || error.status === 403))
      redirect(`/sign-in?next=${encodeURIComponent(path)}`);
    throw error;
  }
}

/**
 * The signed-in user's sessions (devices) for a page, by Better Auth's own call behind GET
 * /api/auth/list-sessions, as that route's JSON carries them (times as ISO strings).
 */
export async function pageSessions(): Promise<unknown> {
  const request = await pageRequest("/api/auth/list-sessions");
  const sessions = await getAuth(request).api.listSessions({ headers: request.headers });
  return JSON.parse(JSON.stringify(sessions));
}
