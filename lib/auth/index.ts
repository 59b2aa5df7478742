import { getConfig } from "../config";
import { siteOrigin } from "../http/origin";
import { database } from "../db";
import { createAuth, type Auth } from "./auth";
import { resolveAuthSecret } from "../db/secret";

export { createAuth, type Auth } from "./auth";
export { membershipOf } from "../db/membership";
export { can, isRoleName, roleRank, ROLE_NAMES, type Permission, type RoleName } from "./roles";
export { resolveAuthSecret, MissingSecretError } from "../db/secret";

const instances = new Map<boolean, Auth>();

/**
 * The process's Better Auth instance for a request (built on first use), over the process database.
 * Cookie attributes are fixed per Better Auth instance, so there is one for a site served over https
 * (SITE_URL https://…, or X-Forwarded-Proto: https from a trusted proxy) and one for plain http.
 * Without a request: the scheme of SITE_URL.
 */
export function getAuth(request?: Request): Auth {
  const config = getConfig();
  const secure = (request ? siteOrigin(request) : (config.SITE_URL ?? "")).startsWith("https://");
  let instance = instances.get(secure);
  if (!instance) {
    instance = createAuth({
      db: database().db,
      secret: resolveAuthSecret(config),
      baseURL: config.SITE_URL?.replace(/\/+$/, ""),
      trustedOrigins: (incoming) => (incoming ? [siteOrigin(incoming)] : []),
      secureCookies: secure,
    });
    instances.set(secure, instance);
  }
  return instance;
}

/** Forgets the instances (tests that switch the process database). */
export function resetAuth(): void {
  instances.clear();
}
