import { describe, expect, it } from "vitest";
import { generateSecret, openSecret, sealSecret, UnreadableSecretError } from "@/lib/webhooks/secret";

const AUTH = "test-secret-test-secret-test-secret-0123";

/** `sealed` with the first character of its `index`-th part replaced by another (whatever was drawn). */
function changePart(sealed: string, index: number): string {
  const parts = sealed.split(".");
  const part = parts[index] ?? "";
  parts[index] = `${part.startsWith("A") ? "B" : "A"}${part.slice(1)}`;
  return parts.join(".");
}

describe("signing secrets", () => {
  it("are whsec_ + base64 of 32 random bytes, a new one each time", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it("are stored sealed: the stored text does not hold the secret, and opens back to it", () => {
    const secret = generateSecret();
    const sealed = sealSecret(secret, AUTH);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(sealed).toMatch(/^v1\./);
    expect(sealSecret(secret, AUTH)).not.toBe(sealed);
    expect(openSecret(sealed, AUTH)).toBe(secret);
  });

  it.each([
    ["another auth secret", (sealed: string) => openSecret(sealed, `${AUTH}x`)],
    // The first character of a part: all six of its bits are data (a last character may hold padding bits).
    ["a changed ciphertext", (sealed: string) => openSecret(changePart(sealed, 3), AUTH)],
    ["a changed tag", (sealed: string) => openSecret(changePart(sealed, 2), AUTH)],
    ["not a sealed value", () => openSecret("whsec_plain", AUTH)],
  ])("cannot be opened with %s", (_name, open) => {
    const sealed = sealSecret(generateSecret(), AUTH);
    expect(() => open(sealed)).toThrow(UnreadableSecretError);
  });
});
