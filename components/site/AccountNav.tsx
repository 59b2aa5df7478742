import Link from "next/link";
import { cookies } from "next/headers";
import { SESSION_COOKIES } from "./brand";

const linkClass = "rounded-md px-3 py-1.5 text-sm font-medium";

/**
 * "Sign in" / the account menu of the site header. It looks only at whether a session cookie is there
 * (no database call on the landing page); /app checks the session itself and sends stale ones to /sign-in.
 */
export async function AccountNav() {
  const jar = await cookies();
  const signedIn = SESSION_COOKIES.some((name) => jar.has(name));
  if (signedIn) {
    return (
      <Link href="/app" className={`${linkClass} bg-blue-700 text-white hover:bg-blue-800`}>
        Your account
      </Link>
    );
  }
  return (
    <div className="flex items-center gap-2">
      <Link
        href="/sign-in"
        className={`${linkClass} text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100 dark:text-slate-100 dark:ring-slate-700 dark:hover:bg-slate-800`}
      >
        Sign in
      </Link>
      <Link href="/sign-up" className={`${linkClass} bg-blue-700 text-white hover:bg-blue-800`}>
        Sign up
      </Link>
    </div>
  );
}
