import { getConfig } from "../config";
import { siteOrigin } from "../api/http";
import { database } from "../db";
import { createAuth, type Auth } from "./auth";
import { resolveAuthSecret } from "./secret";

export { createAuth, membershipOf, type Auth } from "./auth";
export { can, isRoleName, roleRank, ROLE_NAMES, type Permission, type RoleName } from "./roles";
export { resolveAuthSecret, MissingSecretError } from "./secret";

let instance: Auth | undefined;

/** The process's Better Auth instance over the process database (built on first use). */
export function getAuth(): Auth {
  if (!instance) {
    const config = getConfig();
    instance = createAuth({
      db: database().db,
      secret: resolveAuthSecret(config),
      baseURL: config.SITE_URL?.replace(/\/+$/, ""),
      trustedOrigins: (request) => (request ? [siteOrigin(request)] : []),
    });
  }
  return instance;
}

/** Forgets the instance (tests that switch the process database). */
export function resetAuth(): void {
  instance = undefined;
}
