import { expect, type APIRequestContext } from "@playwright/test";

/**
 * Confirms the signed-in account's address the way a person does when the app has no mail server of its
 * own for them: the sign-up's confirmation email waits in the outbox, which its recipient (the owner of
 * their personal team) reads under Settings → Email; following its link confirms the address. An
 * invitation can then be accepted by id (an unconfirmed address cannot accept one).
 */
export async function confirmOwnAddress(request: APIRequestContext): Promise<void> {
  const own = (await (await request.get("/api/account/outbox")).json()) as {
    items: Array<{ kind: string; text: string }>;
  };
  const confirmation = own.items.find((item) => item.kind === "verify_email");
  const link = new URL(/https?:\/\/\S+/.exec(confirmation?.text ?? "")?.[0] ?? "http://missing/");
  expect(link.pathname, "the sign-up's confirmation email is in the account's own outbox").toBe(
    "/api/auth/verify-email",
  );
  expect((await request.get(`${link.pathname}${link.search}`, { maxRedirects: 0 })).status()).toBeLessThan(400);
}
