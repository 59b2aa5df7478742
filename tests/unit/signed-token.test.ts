import { describe, expect, it } from "vitest";
import { signTuple, verifyTuple } from "@/lib/signed-token";
import { signMuteToken, verifyMuteToken } from "@/lib/alerts/tokens";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "@/lib/reports/tokens";

const SECRET = "s".repeat(32);

describe("signed tokens (lib/signed-token.ts)", () => {
  it("round-trips the strings it signed", () => {
    expect(verifyTuple(SECRET, "a", signTuple(SECRET, "a", ["x", "y"]), 2)).toEqual(["x", "y"]);
  });

  it.each([
    ["another label", (token: string) => verifyTuple(SECRET, "b", token, 2)],
    ["another secret", (token: string) => verifyTuple("t".repeat(32), "a", token, 2)],
    ["another count", (token: string) => verifyTuple(SECRET, "a", token, 3)],
    ["a changed payload", (token: string) => verifyTuple(SECRET, "a", `e${token.slice(1)}`, 2)],
    ["a cut signature", (token: string) => verifyTuple(SECRET, "a", token.slice(0, -1), 2)],
    ["an extra part", (token: string) => verifyTuple(SECRET, "a", `${token}.x`, 2)],
    ["a very long token", (token: string) => verifyTuple(SECRET, "a", `${token}${"A".repeat(1_000)}`, 2)],
  ])("refuses %s", (_case, verify) => {
    expect(verify(signTuple(SECRET, "a", ["x", "y"]))).toBeNull();
  });

  it("refuses empty or non-string parts even when signed", () => {
    expect(verifyTuple(SECRET, "a", signTuple(SECRET, "a", ["x", ""]), 2)).toBeNull();
    const payload = Buffer.from(JSON.stringify(["x", 1])).toString("base64url");
    const forgedShape = signTuple(SECRET, "a", ["x", "y"]).replace(/^[^.]+/, payload);
    expect(verifyTuple(SECRET, "a", forgedShape, 2)).toBeNull();
  });

  it("a mute token is no unsubscribe token and the other way round (their labels differ)", () => {
    const mute = signMuteToken(SECRET, { kind: "mute", userId: "u1", monitorId: "m1" });
    const unsubscribe = signUnsubscribeToken(SECRET, { shareId: "s1", email: "a@example.com" });
    expect(verifyMuteToken(SECRET, mute)).toEqual({ kind: "mute", userId: "u1", monitorId: "m1" });
    expect(verifyUnsubscribeToken(SECRET, unsubscribe)).toEqual({ shareId: "s1", email: "a@example.com" });
    expect(verifyUnsubscribeToken(SECRET, mute)).toBeNull();
    expect(verifyMuteToken(SECRET, unsubscribe)).toBeNull();
  });
});
