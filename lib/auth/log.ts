import { log } from "../log";

type Level = "debug" | "info" | "warn" | "error";

const BASE_URL_NOT_SET = "Base URL is not set";
let toldAboutSiteUrl = false;

/**
 * Better Auth's log lines as the server's structured logs. Its advice when no base URL is set names its
 * own variables; here the setting is SITE_URL, and what happens without it is LinkLens's choice
 * (lib/auth/auth-endpoint.ts), so that line is replaced by one that says so, once per process.
 */
export function betterAuthLog(level: Level, message: string, ...args: unknown[]): void {
  if (message.includes(BASE_URL_NOT_SET)) {
    if (toldAboutSiteUrl) return;
    toldAboutSiteUrl = true;
    log.warn(
      { component: "auth" },
      "SITE_URL is not set: sign-in, reset and verification emails link to the listen address, and other absolute URLs follow the request's Host. Set SITE_URL to the site's public origin wherever others reach the site.",
    );
    return;
  }
  const err = args.find((arg): arg is Error => arg instanceof Error);
  // Better Auth logs what clients got wrong (a foreign callbackURL, a bad token) as errors; failures of
  // ours reach the route as a 500 and are logged there, with the request id.
  log[level === "error" ? "warn" : level]({ component: "better-auth", ...(err ? { err } : {}) }, message);
}
