import { describe, expect, it } from "vitest";
import { base32Decode, parseTotpUri, totp, wrongCode } from "../../helpers/totp";

/** The tests' own authenticator (tests/helpers/totp.ts) holds to RFC 6238 before it judges LinkLens. */
describe("the tests' TOTP (RFC 6238)", () => {
  const key = Buffer.from("12345678901234567890");

  // RFC 6238 Appendix B, the SHA-1 rows (8 digits).
  it.each([
    [59, "94287082"],
    [1_111_111_109, "07081804"],
    [1_111_111_111, "14050471"],
    [1_234_567_890, "89005924"],
    [2_000_000_000, "69279037"],
    [20_000_000_000, "65353130"],
  ])("at %i s the code is %s", (seconds, code) => {
    expect(totp(key, seconds * 1000, 8)).toBe(code);
  });

  it("decodes base32 (RFC 4648) and reads an otpauth URI", () => {
    expect(base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ").toString()).toBe("12345678901234567890");
    const parsed = parseTotpUri(
      "otpauth://totp/LinkLens:a%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=LinkLens&digits=6&period=30",
    );
    expect(parsed).toMatchObject({ issuer: "LinkLens", digits: 6, period: 30 });
    expect(parsed.key.equals(key)).toBe(true);
  });

  it("makes wrong codes that no neighbouring step accepts", () => {
    const at = 1_234_567_890_000;
    const code = wrongCode(key, at);
    expect([-1, 0, 1].map((step) => totp(key, at + step * 30_000))).not.toContain(code);
  });
});
