import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { teams } from "@/lib/webhooks/channels/teams";
import { oneLine } from "@/lib/webhooks/channels/text";
import { pingMessage } from "@/lib/webhooks/message";
import { parseChannelUrl } from "@/lib/webhooks/url";
import { applyUrlMask } from "@/lib/webhooks/url-mask";
import { asRequest, TEAMS_MAX_BYTES, teamsApi } from "../../../helpers/chat-receivers";
import { at, everyMessage, HOSTILE, hostileEverywhere, longestMessage, organization } from "./messages";

/** The `teams` channel, one table per part (reports-and-channels.md "Chat channels"). */

const ALLOW = ["127.0.0.1:4567"];
const WORKFLOW =
  "https://prod-12.westus.logic.azure.com/workflows/0a1b2c/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=SECRETsig";

function urlError(raw: string): ApiError | "ok" {
  try {
    parseChannelUrl(teams, raw, ALLOW);
    return "ok";
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

interface Card {
  type: string;
  version: string;
  body: Array<{ type: string; text?: string; facts?: Array<{ title: string; value: string }> }>;
  actions: Array<{ type: string; title: string; url: string }>;
}
interface Body {
  type: string;
  attachments: Array<{ contentType: string; content: Card }>;
}
const cardOf = (raw: string) => (JSON.parse(raw) as Body).attachments[0]?.content as Card;
const factsOf = (card: Card) => card.body.find((element) => element.type === "FactSet")?.facts ?? [];

/** Adaptive Card markdown characters appear only escaped; no value starts a list. */
const ESCAPED = String.raw`(?:[^\\*_[\]()<>~\x60{}|#&]|\\[\\*_[\]()<>~\x60{}|#&.+-])*`;
const escapedText = new RegExp(`^(?![-+](?:\\s|$)|\\d+[.)](?:\\s|$))${ESCAPED}$`);
const linkValue = new RegExp(`^\\[${ESCAPED}\\]\\(https?://[^\\s()\\[\\]<>]+\\)$`);
const unescape = (text: string) => text.replace(/\\([\\*_[\]()<>~`{}|#&.+-])/g, "$1");

describe("teams: URL rule", () => {
  it.each([
    ["a Workflows trigger (logic.azure.com)", WORKFLOW, "ok"],
    [
      "a Workflows trigger (Power Platform)",
      "https://default0a1b.2c.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/0a1b/triggers/manual/paths/invoke?api-version=1&sig=S",
      "ok",
    ],
    ["an incoming webhook", "https://acme.webhook.office.com/webhookb2/a@b/IncomingWebhook/c/d", "ok"],
    ["a local receiver on the allow list", "http://127.0.0.1:4567/teams/workflows/x", "ok"],
    ["another host", "https://teams.example.com/workflows/x", "INVALID_URL"],
    ["a host that only contains the suffix", "https://x.logic.azure.com.evil.example/workflows/x", "INVALID_URL"],
    ["the bare suffix as a host", "https://webhook.office.com/webhookb2/x", "INVALID_URL"],
    ["http to Microsoft", "http://prod-12.westus.logic.azure.com/workflows/x", "INVALID_URL"],
  ])("%s → %s", (_name, raw, expected) => {
    const outcome = urlError(raw);
    expect(outcome === "ok" ? "ok" : outcome.code).toBe(expected);
  });

  it("another host's INVALID_URL shows the form and names the three hosts Teams uses", () => {
    const error = urlError("https://hooks.example.com/workflows/x");
    expect(error).toMatchObject({ code: "INVALID_URL", message: "This is not a Microsoft Teams webhook URL." });
    const hint = (error as ApiError).hint;
    expect(hint).toContain("https://prod-00.westus.logic.azure.com/workflows/…");
    for (const host of [".logic.azure.com", ".environment.api.powerplatform.com", ".webhook.office.com"])
      expect(hint).toContain(host);
  });
});

describe("teams: how its URL is shown after creation (host only: the path and query are the key)", () => {
  it.each([
    [WORKFLOW, "https://prod-12.westus.logic.azure.com/…"],
    ["https://acme.webhook.office.com/webhookb2/a@b/IncomingWebhook/c/d", "https://acme.webhook.office.com/…"],
    ["http://127.0.0.1:4567/teams/workflows/x", "http://127.0.0.1:4567/…"],
  ])("%s → %s", (url, shown) => {
    expect(applyUrlMask(teams.mask, url)).toBe(shown);
  });
});

describe("teams: escaping (Adaptive Card markdown)", () => {
  it.each([
    ["**bold** _it_", "\\*\\*bold\\*\\* \\_it\\_"],
    ["[Click](https://evil.example)", "\\[Click\\]\\(https://evil.example\\)"],
    ["{{DATE(2017-02-14T06:08:39Z, SHORT)}}", "\\{\\{DATE\\(2017-02-14T06:08:39Z, SHORT\\)\\}\\}"],
    ["<at>Everyone</at> & co", "\\<at\\>Everyone\\</at\\> \\& co"],
    ["- item", "\\- item"],
    ["+ item", "\\+ item"],
    ["1. first", "1\\. first"],
    ["12) twelfth", "12\\) twelfth"],
    ["a - b, 1. c", "a - b, 1. c"],
    ["Schuhe für 🏃", "Schuhe für 🏃"],
  ])("%s → %s", (text, escaped) => {
    expect(teams.escape(text)).toBe(escaped);
  });
});

describe("teams: body", () => {
  it.each(everyMessage())("%s: Teams accepts it (an Adaptive Card 1.4, within 28 KB)", (_name, message) => {
    const raw = teams.body(message);
    const answer = teamsApi(asRequest(raw, "/workflows/x"));
    expect(answer.status, answer.body).toBe(202);
    expect(Buffer.byteLength(raw)).toBeLessThan(TEAMS_MAX_BYTES);
  });

  it("is a message with one Adaptive Card: the sentence in a TextBlock, a FactSet, an Action.OpenUrl to the monitor", () => {
    const raw = teams.body(hostileEverywhere("Best shoes"));
    const body = JSON.parse(raw) as Body;
    expect(body.type).toBe("message");
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0]?.contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = cardOf(raw);
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.body[0]).toMatchObject({
      type: "TextBlock",
      text: "Anchor text changed: mine.example on Best shoes",
      wrap: true,
    });
    expect(factsOf(card)).toEqual([
      { title: "Page", value: "[https://blog.example.org/Best shoes](https://blog.example.org/Best%20shoes)" },
      { title: "Link", value: "mine.example Best shoes" },
      { title: "State", value: "live → anchor mismatch" },
      { title: "Anchor text", value: "Best shoes → “Best shoes”" },
      { title: "When", value: "2026-11-23 11:59 UTC" },
    ]);
    expect(card.actions).toEqual([
      { type: "Action.OpenUrl", title: "Open the monitor", url: "https://linklens.example/app/monitors/mon-1" },
    ]);
  });

  it("a ping still has its FactSet (when it was sent)", () => {
    const card = cardOf(teams.body(pingMessage(organization, "https://linklens.example/app/webhooks", at)));
    expect(factsOf(card)).toEqual([{ title: "When", value: "2026-11-23 12:00 UTC" }]);
    expect(card.actions[0]?.url).toBe("https://linklens.example/app/webhooks");
  });

  it.each(HOSTILE)("page text %j is shown as written and forms no markup, function, mention or link", (hostile) => {
    const card = cardOf(teams.body(hostileEverywhere(hostile)));
    const texts = card.body.flatMap((element) => (element.text ? [element.text] : []));
    for (const text of texts) expect(text).toMatch(escapedText);
    for (const fact of factsOf(card)) {
      expect(fact.title).toMatch(escapedText);
      for (const side of fact.value.split(" → "))
        expect(side).toMatch(new RegExp(`${linkValue.source}|${escapedText.source}`));
    }
    expect(unescape(texts[0] ?? "")).toContain(oneLine(hostile));
    const anchor = factsOf(card).find((fact) => fact.title === "Anchor text");
    expect(unescape(anchor?.value ?? "")).toBe(`${oneLine(hostile)} → “${oneLine(hostile)}”`);
  });

  it("the longest message is cut with …", () => {
    const card = cardOf(teams.body(longestMessage()));
    expect(card.body[0]?.text?.endsWith("…")).toBe(true);
    expect(card.body[0]?.text?.length).toBeLessThanOrEqual(500);
    for (const fact of factsOf(card)) expect(fact.value.length).toBeLessThanOrEqual(1_600);
    // The changes that do not fit in 28 KB are one "…" fact, before the time.
    expect(factsOf(card).slice(-2)).toEqual([
      { title: "…", value: "…" },
      { title: "When", value: "2026-11-23 11:59 UTC" },
    ]);
  });
});

describe("teams: success rule", () => {
  it.each([
    [202, "", true],
    [200, "1", true],
    [200, "Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error 413", false],
    [400, "Bad payload received by generic incoming webhook.", false],
    [429, "", false],
    [302, "", false],
    [500, "", false],
  ])("HTTP %i %j → delivered %s", (status, body, delivered) => {
    expect(teams.delivered({ status, body })).toBe(delivered);
  });
});
