import { createHmac } from "node:crypto";

/**
 * RFC 6238 TOTP (HMAC-SHA-1, as LinkLens's authenticator URIs say), written out so the tests compute a
 * user's codes from the secret on their own, the way an authenticator app does, instead of asking the
 * code under test. Checked against the RFC's test vectors (tests/unit/auth/totp.test.ts).
 */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 (the `secret` of an otpauth:// URI), padding and case ignored. */
export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.toUpperCase().replace(/=+$/, "")) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP of `counter` with SHA-1. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The TOTP code of `key` at `atMs` (30-second steps from the Unix epoch). */
export function totp(key: Buffer, atMs = Date.now(), digits = 6, periodSeconds = 30): string {
  return hotp(key, Math.floor(atMs / 1000 / periodSeconds), digits);
}

/** The key, issuer, digits and period of an otpauth://totp/… URI (what the app's QR code carries). */
export function parseTotpUri(uri: string): { key: Buffer; issuer: string | null; digits: number; period: number } {
  const url = new URL(uri);
  if (url.protocol !== "otpauth:" || url.host !== "totp") throw new Error(`not a TOTP URI: ${uri}`);
  const secret = url.searchParams.get("secret");
  if (!secret) throw new Error(`no secret in ${uri}`);
  return {
    key: base32Decode(secret),
    issuer: url.searchParams.get("issuer"),
    digits: Number(url.searchParams.get("digits") ?? 6),
    period: Number(url.searchParams.get("period") ?? 30),
  };
}

/** A 6-digit code that is not `key`'s at `atMs`, nor in the step before or after (authenticators drift). */
export function wrongCode(key: Buffer, atMs = Date.now()): string {
  const near = new Set([-1, 0, 1].map((step) => totp(key, atMs + step * 30_000)));
  for (let n = 0; ; n += 1) {
    const code = String((123_456 + n * 7_919) % 1_000_000).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}
