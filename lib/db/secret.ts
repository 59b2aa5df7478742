import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const SECRET_FILE = "auth-secret";

export class MissingSecretError extends Error {
  constructor() {
    super(
      "BETTER_AUTH_SECRET is required when DATABASE_URL is set: every instance must sign sessions with the same secret. " +
        "Set it to a random string of at least 32 characters (e.g. `openssl rand -base64 32`).",
    );
    this.name = "MissingSecretError";
  }
}

/**
 * The secret that signs session cookies and tokens. With PostgreSQL it must be given (instances share
 * it); the embedded default generates one on first start and keeps it in DATA_DIR with mode 0600, so
 * sessions survive a restart.
 */
export function resolveAuthSecret(config: {
  BETTER_AUTH_SECRET?: string;
  DATABASE_URL?: string;
  DATA_DIR: string;
}): string {
  if (config.BETTER_AUTH_SECRET) return config.BETTER_AUTH_SECRET;
  if (config.DATABASE_URL) throw new MissingSecretError();
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  const file = path.join(config.DATA_DIR, SECRET_FILE);
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds no usable secret; delete it to generate a new one.`);
  return secret;
}
