import os from "node:os";
import { describe, expect, it } from "vitest";
import { assertPublicUrl, isAllowListedUrl } from "@/lib/analyzer";
import { ApiError } from "@/lib/errors";
import { staticResolver, type Resolver } from "@/lib/net/resolve";

/** The front door's policy for a URL contacted later (webhook endpoints): deny list and address policy, as for the analyzer's first hop. */

const failing: Resolver = async () => {
  throw new Error("NXDOMAIN");
};
const resolver = staticResolver(
  {
    "public.example": ["93.184.216.34"],
    "rebind.example": ["127.0.0.1"],
    "mixed.example": ["93.184.216.34", "10.0.0.7"],
    "meta.example": ["169.254.169.254"],
    "v6.example": ["::1"],
  },
  failing,
);

async function verdict(
  raw: string,
  settings: { ALLOW_PRIVATE_HOSTS: string[]; DENY_HOSTS?: string[] } = { ALLOW_PRIVATE_HOSTS: [] },
): Promise<string> {
  try {
    return await assertPublicUrl(new URL(raw), settings, { resolver });
  } catch (error) {
    return error instanceof ApiError ? `${error.status} ${error.code}` : "thrown";
  }
}

describe("assertPublicUrl", () => {
  it.each([
    ["a host with public addresses", "https://public.example/hook", "public"],
    ["a public IP literal", "https://93.184.216.34/hook", "public"],
    ["a host resolving to loopback", "https://rebind.example/hook", "403 BLOCKED_URL"],
    ["one private answer among public ones", "https://mixed.example/hook", "403 BLOCKED_URL"],
    ["cloud metadata (link-local)", "https://meta.example/", "403 BLOCKED_URL"],
    ["IPv6 loopback by name", "https://v6.example/", "403 BLOCKED_URL"],
    [
      "a name that does not resolve (nothing to judge yet; each request re-resolves)",
      "https://nowhere.example/",
      "unresolved",
    ],
  ])("%s → %s", async (_name, raw, expected) => {
    expect(await verdict(raw)).toBe(expected);
  });

  it("the deny list refuses before any lookup, subdomains included", async () => {
    expect(
      await verdict("https://hooks.public.example/", { ALLOW_PRIVATE_HOSTS: [], DENY_HOSTS: ["public.example"] }),
    ).toBe("403 BLOCKED_URL");
  });

  it("an ALLOW_PRIVATE_HOSTS entry is exempt (local receivers in tests)", async () => {
    expect(await verdict("http://rebind.example:4567/", { ALLOW_PRIVATE_HOSTS: ["rebind.example:4567"] })).toBe(
      "public",
    );
    expect(isAllowListedUrl(new URL("http://127.0.0.1:4567/x"), ["127.0.0.1:4567"])).toBe(true);
    expect(isAllowListedUrl(new URL("http://127.0.0.1:4568/x"), ["127.0.0.1:4567"])).toBe(false);
  });

  it("with the system resolver: this machine's own name resolves to a non-public address and is refused", async () => {
    await expect(
      assertPublicUrl(new URL(`https://${os.hostname()}/hook`), { ALLOW_PRIVATE_HOSTS: [] }),
    ).rejects.toMatchObject({ code: "BLOCKED_URL", status: 403 });
  });
});
