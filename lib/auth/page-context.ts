import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ApiError } from "../errors";
import { authorize, type AccountContext } from "./guard";

/**
 * The signed-in pages' view of the guard: the same checks as the account routes (a GET, so no origin
 * step), and a redirect to /sign-in instead of a 401.
 */
export async function pageContext(path: string): Promise<AccountContext> {
  const incoming = await headers();
  const forwarded = new Headers();
  for (const name of ["cookie", "host", "x-forwarded-host", "x-forwarded-proto"]) {
    const value = incoming.get(name);
    if (value) forwarded.set(name, value);
  }
  try {
    return await authorize(
      new Request(`http://${incoming.get("host") ?? "localhost"}${path}`, { headers: forwarded }),
      { membership: ["read"] },
    );
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403))
      redirect(`/sign-in?next=${encodeURIComponent(path)}`);
    throw error;
  }
}
