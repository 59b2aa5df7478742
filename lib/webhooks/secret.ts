import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Signing secrets (webhooks.md): `whsec_` + base64 of 32 random bytes, shown once. The sender needs the
 * secret itself to sign, so it cannot be hashed; it is stored sealed with AES-256-GCM under a key derived
 * (HKDF-SHA256) from the auth secret, so a copy of the database alone does not let anyone forge
 * deliveries. Changing BETTER_AUTH_SECRET makes stored secrets unreadable: deliveries then fail with a
 * message asking for a rotation.
 */

export const SECRET_PREFIX = "whsec_";

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

const keys = new Map<string, Buffer>();

function keyFor(authSecret: string): Buffer {
  let key = keys.get(authSecret);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", authSecret, "linklens", "webhook signing secrets v1", 32));
    keys.set(authSecret, key);
  }
  return key;
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealSecret(secret: string, authSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(authSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [
    "v1",
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    ciphertext.toString("base64url"),
  ].join(".");
}

export class UnreadableSecretError extends Error {
  constructor() {
    super("The signing secret cannot be read (was BETTER_AUTH_SECRET changed?). Rotate the secret.");
    this.name = "UnreadableSecretError";
  }
}

/** The secret sealed by sealSecret; throws UnreadableSecretError under another auth secret or when tampered with. */
export function openSecret(sealed: string, authSecret: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new UnreadableSecretError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFor(authSecret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new UnreadableSecretError();
  }
}
