import { describe, expect, it } from "vitest";
import { signMuteToken } from "@/lib/alerts/tokens";
import { reportLinks, unsubscribeHeaders } from "@/lib/reports/links";
import { reportLinkToken } from "@/lib/reports/report-link";
import { signUnsubscribeToken, verifyUnsubscribeToken } from "@/lib/reports/tokens";
import { redactSecretPaths } from "@/lib/secret-paths";
import { isTokenShaped } from "@/lib/shares/token";

/**
 * The tokens of scheduled reports: the signed unsubscribe token (one address, one share, nothing else;
 * no other link's token is one), the emailed report link's derived token, and how their links are built,
 * headed (RFC 8058) and kept out of logs.
 */

const SECRET = "report-secret-report-secret-report-secret";
const target = { shareId: "share-1", email: "Client@Example.com" };

describe("unsubscribe tokens", () => {
  it("name the share and the (lowercased) address they were signed for", () => {
    expect(verifyUnsubscribeToken(SECRET, signUnsubscribeToken(SECRET, target))).toEqual({
      shareId: "share-1",
      email: "client@example.com",
    });
  });

  it.each<[string, (token: string) => string]>([
    ["another secret", (token) => signUnsubscribeToken("another-secret-another-secret-another", target) || token],
    ["a changed signature", (token) => `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`],
    [
      "a payload naming another address",
      (token) =>
        `${Buffer.from(JSON.stringify(["share-1", "other@example.com"])).toString("base64url")}.${token.split(".")[1]}`,
    ],
    ["a third part", (token) => `${token}.x`],
    ["no signature", (token) => token.split(".")[0] ?? ""],
    ["nothing", () => ""],
    ["2,000 characters", () => "a".repeat(2_000)],
    [
      "an alert email's mute token (signed with the same secret)",
      () => signMuteToken(SECRET, { kind: "off", userId: "share-1", organizationId: "client@example.com" }),
    ],
  ])("%s opens nothing", (_name, alter) => {
    expect(verifyUnsubscribeToken(SECRET, alter(signUnsubscribeToken(SECRET, target)))).toBeNull();
  });
});

describe("the emailed report link's token", () => {
  it("has a share token's shape, is stable for a share and differs between shares and secrets", () => {
    const token = reportLinkToken(SECRET, "share-1");
    expect(isTokenShaped(token)).toBe(true);
    expect(reportLinkToken(SECRET, "share-1")).toBe(token);
    expect(reportLinkToken(SECRET, "share-2")).not.toBe(token);
    expect(reportLinkToken(`${SECRET}-rotated`, "share-1")).not.toBe(token);
  });
});

describe("report links and headers", () => {
  const links = reportLinks("https://reports.linklens.example/", SECRET);

  it("RFC 8058: List-Unsubscribe names the https one-click endpoint, List-Unsubscribe-Post the one-click body", () => {
    const headers = unsubscribeHeaders(links, target);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    const url = new URL(/^<(.+)>$/.exec(headers["List-Unsubscribe"] ?? "")?.[1] ?? "");
    expect(url.protocol).toBe("https:");
    expect(url.pathname).toBe("/api/report-emails/unsubscribe");
    expect(verifyUnsubscribeToken(SECRET, url.searchParams.get("token") ?? "")).toEqual({
      shareId: "share-1",
      email: "client@example.com",
    });
  });

  it("the visible links open pages, with the token in the query", () => {
    expect(links.confirm("abc")).toBe("https://reports.linklens.example/report-emails/confirm?token=abc");
    expect(links.unsubscribe(target)).toMatch(
      /^https:\/\/reports\.linklens\.example\/report-emails\/unsubscribe\?token=/,
    );
    expect(links.report("T".repeat(32))).toBe(`https://reports.linklens.example/r/${"T".repeat(32)}`);
  });

  it("no log line keeps a token of these links", () => {
    for (const url of [
      links.confirm("confirm-token-value"),
      links.unsubscribe(target),
      links.oneClick(target),
      links.report("R".repeat(32)),
    ]) {
      const token = new URL(url).searchParams.get("token") ?? url.split("/r/")[1] ?? "";
      const line = redactSecretPaths(`{"msg":"request","url":"${url}"}`);
      expect(line).not.toContain(token);
      expect(line).toContain("[redacted]");
    }
  });
});
