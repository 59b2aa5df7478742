import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Share tokens: 24 random bytes (192 bits, above the 128 the spec asks for) as 32 base64url characters.
 * Only the SHA-256 is stored, so a copy of the database opens no report. A token of the wrong shape
 * (truncated, extended, other characters) is refused before any lookup; the stored hash is then
 * compared in constant time. The lookup itself is by the hash: its timing tells an attacker about a
 * SHA-256 of a guess, never about a prefix of a real token.
 */

const TOKEN_BYTES = 24;
export const TOKEN_LENGTH = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

/** A new token and the hash to store. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, hash: hashToken(token) };
}

/** Lowercase hex SHA-256 of the token's characters. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Whether a string can be a token at all (exactly 32 base64url characters). */
export function isTokenShaped(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** Constant-time equality of two hex hashes (false for different lengths). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
