import type { Answer, Behavior, ReceivedRequest } from "./webhook-receiver";

/**
 * The chat services as receivers judge them: for each of Discord, Microsoft Teams, Google Chat and
 * Telegram, a function that answers a request the way the service does — its success answer for a body
 * within its documented rules, and its own 4xx (the status and the body shape it uses) for anything it
 * refuses: a wrong URL form, a missing field, a text over a limit, an embed over 6,000 characters, a
 * card of another shape, HTML Telegram cannot parse. Mounted on a path of the local receiver with
 * `receiver.on(path, chatService("telegram"))`, and called directly by unit tests.
 *
 * Where LinkLens promises more than the service demands (Discord's `allowed_mentions: { parse: [] }`,
 * Adaptive Card version 1.4 with its TextBlock, FactSet and Action.OpenUrl, Telegram's parse_mode HTML
 * and disabled previews), the receiver refuses a body without it too, marked "LinkLens rule", so a
 * regression is a failed delivery in every suite that sends one.
 *
 * Lengths are counted in UTF-16 code units (the strictest reading of "characters").
 */

export type ChatService = "discord" | "teams" | "google_chat" | "telegram";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const json = (status: number, body: unknown): Answer => ({
  status,
  body: JSON.stringify(body),
  headers: { "content-type": "application/json" },
});
const isJson = (request: ReceivedRequest) => /^application\/json\b/i.test(request.headers["content-type"] ?? "");
const parse = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
};
const isHttpUrl = (value: unknown) => {
  const url = typeof value === "string" ? URL.parse(value) : null;
  return url !== null && (url.protocol === "https:" || url.protocol === "http:");
};

// ---------------------------------------------------------------------------------------------------
// Discord: Execute Webhook (docs: resources/webhook#execute-webhook, resources/message#embed-limits).

export const DISCORD = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  total: 6000,
} as const;

/** What Discord would say is wrong with an Execute Webhook body (empty: nothing). */
export function discordProblems(body: unknown): string[] {
  if (!isObject(body)) return ["body: not a JSON object"];
  const problems: string[] = [];
  const maxLength = (where: string, value: unknown, max: number, required = false) => {
    if (value === undefined && !required) return;
    if (typeof value !== "string") problems.push(`${where}: must be a string`);
    else if (value.length > max) problems.push(`${where}: must be ${max} or fewer in length (${value.length})`);
    else if (required && value.length === 0) problems.push(`${where}: must not be empty`);
  };
  maxLength("content", body.content, DISCORD.content);
  const embeds = body.embeds ?? [];
  if (!Array.isArray(embeds)) problems.push("embeds: must be an array");
  else {
    if (embeds.length > DISCORD.embeds) problems.push(`embeds: at most ${DISCORD.embeds}`);
    let total = 0;
    for (const [index, embed] of embeds.entries()) {
      const at = `embeds.${index}`;
      if (!isObject(embed)) {
        problems.push(`${at}: must be an object`);
        continue;
      }
      maxLength(`${at}.title`, embed.title, DISCORD.title);
      maxLength(`${at}.description`, embed.description, DISCORD.description);
      if (embed.url !== undefined && !isHttpUrl(embed.url)) problems.push(`${at}.url: not a well formed URL`);
      if (embed.timestamp !== undefined && Number.isNaN(Date.parse(String(embed.timestamp))))
        problems.push(`${at}.timestamp: not an ISO8601 timestamp`);
      if (embed.color !== undefined && !(Number.isInteger(embed.color) && Number(embed.color) <= 0xffffff))
        problems.push(`${at}.color: not a colour`);
      const fields = embed.fields ?? [];
      if (!Array.isArray(fields)) problems.push(`${at}.fields: must be an array`);
      else {
        if (fields.length > DISCORD.fields) problems.push(`${at}.fields: at most ${DISCORD.fields}`);
        for (const [n, field] of fields.entries()) {
          if (!isObject(field)) {
            problems.push(`${at}.fields.${n}: must be an object`);
            continue;
          }
          maxLength(`${at}.fields.${n}.name`, field.name, DISCORD.fieldName, true);
          maxLength(`${at}.fields.${n}.value`, field.value, DISCORD.fieldValue, true);
          total += String(field.name ?? "").length + String(field.value ?? "").length;
        }
      }
      const footer = isObject(embed.footer) ? embed.footer : undefined;
      if (footer) maxLength(`${at}.footer.text`, footer.text, DISCORD.footer, true);
      const author = isObject(embed.author) ? embed.author : undefined;
      if (author) maxLength(`${at}.author.name`, author.name, DISCORD.author, true);
      total += [embed.title, embed.description, footer?.text, author?.name]
        .map((text) => (typeof text === "string" ? text.length : 0))
        .reduce((sum, n) => sum + n, 0);
    }
    if (total > DISCORD.total) problems.push(`embeds: Embed size exceeds maximum size of ${DISCORD.total} (${total})`);
  }
  const mentions = body.allowed_mentions;
  if (mentions !== undefined) {
    if (!isObject(mentions)) problems.push("allowed_mentions: must be an object");
    else {
      const parse = mentions.parse ?? [];
      if (!Array.isArray(parse) || parse.some((kind) => !["roles", "users", "everyone"].includes(String(kind))))
        problems.push("allowed_mentions.parse: must be an array of roles, users, everyone");
      for (const list of ["users", "roles"] as const) {
        const ids = mentions[list];
        if (ids !== undefined && (!Array.isArray(ids) || ids.length > 100))
          problems.push(`allowed_mentions.${list}: at most 100 ids`);
        if (ids !== undefined && Array.isArray(parse) && parse.includes(list))
          problems.push(`allowed_mentions: parse ${list} and ${list} are mutually exclusive`);
      }
    }
  }
  return problems;
}

export function discordApi(request: ReceivedRequest): Answer {
  if (!/\/api\/webhooks\/\d+\/[\w-]+\/?$/.test(request.path))
    return json(404, { message: "Unknown Webhook", code: 10015 });
  const body = isJson(request) ? parse(request.body) : undefined;
  if (body === undefined) return json(400, { message: "The request body contains invalid JSON.", code: 50109 });
  const problems = discordProblems(body);
  if (problems.length > 0) return json(400, { message: "Invalid Form Body", code: 50035, errors: problems });
  const message = body as Json;
  const hasContent = typeof message.content === "string" && message.content.length > 0;
  if (!hasContent && !(Array.isArray(message.embeds) && message.embeds.length > 0))
    return json(400, { message: "Cannot send an empty message", code: 50006 });
  const mentions = message.allowed_mentions;
  if (
    !isObject(mentions) ||
    !Array.isArray(mentions.parse) ||
    mentions.parse.length > 0 ||
    mentions.users ||
    mentions.roles
  )
    return json(400, { message: "LinkLens rule: allowed_mentions must be { parse: [] } (no mention ever notifies)" });
  return { status: 204 };
}

// ---------------------------------------------------------------------------------------------------
// Microsoft Teams: a Workflows "Post to a channel when a webhook request is received" trigger, or an
// incoming webhook (docs: microsoftteams/platform …/connectors-using; adaptive-cards schema; 28 KB).

export const TEAMS_MAX_BYTES = 28 * 1024;
const CARD_ELEMENTS = new Set([
  "TextBlock",
  "RichTextBlock",
  "FactSet",
  "Image",
  "ImageSet",
  "Container",
  "ColumnSet",
  "ActionSet",
  "Table",
]);

/** What Teams would say is wrong with a message body (empty: nothing). */
export function teamsProblems(body: unknown): string[] {
  if (!isObject(body)) return ["body: not a JSON object"];
  if (body.type !== "message") return ['type: must be "message"'];
  if (!Array.isArray(body.attachments) || body.attachments.length === 0) return ["attachments: at least one"];
  const problems: string[] = [];
  for (const [index, attachment] of body.attachments.entries()) {
    const at = `attachments.${index}`;
    if (!isObject(attachment) || attachment.contentType !== "application/vnd.microsoft.card.adaptive") {
      problems.push(`${at}.contentType: must be application/vnd.microsoft.card.adaptive`);
      continue;
    }
    const card = attachment.content;
    if (!isObject(card) || card.type !== "AdaptiveCard") {
      problems.push(`${at}.content: must be an AdaptiveCard`);
      continue;
    }
    // Teams renders cards up to 1.5; a later version shows only its fallback text.
    if (typeof card.version !== "string" || !/^1\.[0-5]$/.test(card.version))
      problems.push(`${at}.content.version: Teams renders 1.0–1.5 (${String(card.version)})`);
    if (!Array.isArray(card.body)) problems.push(`${at}.content.body: must be an array`);
    for (const [n, element] of (Array.isArray(card.body) ? card.body : []).entries()) {
      const where = `${at}.content.body.${n}`;
      if (!isObject(element) || !CARD_ELEMENTS.has(String(element.type))) {
        problems.push(`${where}: unknown element type`);
        continue;
      }
      if (element.type === "TextBlock" && (typeof element.text !== "string" || element.text.length === 0))
        problems.push(`${where}.text: required`);
      if (element.type === "FactSet") {
        if (!Array.isArray(element.facts)) problems.push(`${where}.facts: required`);
        for (const [f, fact] of (Array.isArray(element.facts) ? element.facts : []).entries())
          if (!isObject(fact) || typeof fact.title !== "string" || typeof fact.value !== "string")
            problems.push(`${where}.facts.${f}: title and value must be strings`);
      }
    }
    for (const [n, action] of (Array.isArray(card.actions) ? card.actions : []).entries())
      if (!isObject(action) || (action.type === "Action.OpenUrl" && !isHttpUrl(action.url)))
        problems.push(`${at}.content.actions.${n}: Action.OpenUrl needs an absolute url`);
  }
  return problems;
}

export function teamsApi(request: ReceivedRequest): Answer {
  if (Buffer.byteLength(request.body) > TEAMS_MAX_BYTES)
    return { status: 413, body: "Message size is over the 28 KB Teams accepts." };
  const body = isJson(request) ? parse(request.body) : undefined;
  if (body === undefined) return { status: 400, body: "Bad payload received by generic incoming webhook." };
  const problems = teamsProblems(body);
  if (problems.length > 0)
    return { status: 400, body: `Bad payload received by generic incoming webhook: ${problems.join("; ")}` };
  for (const attachment of (body as { attachments: Json[] }).attachments) {
    const card = attachment.content as Json;
    const types = (card.body as Json[]).map((element) => element.type);
    const actions = (Array.isArray(card.actions) ? card.actions : []) as Json[];
    if (
      card.version !== "1.4" ||
      !types.includes("TextBlock") ||
      !types.includes("FactSet") ||
      !actions.some((a) => a.type === "Action.OpenUrl")
    )
      return {
        status: 400,
        body: "LinkLens rule: an AdaptiveCard 1.4 with a TextBlock, a FactSet and an Action.OpenUrl",
      };
  }
  // Workflows answer 202 with no body once the flow has the request.
  return { status: 202 };
}

// ---------------------------------------------------------------------------------------------------
// Google Chat: spaces.messages.create through an incoming webhook (docs: workspace/chat/quickstart/webhooks,
// api/reference/rest/v1/spaces.messages; a text message holds at most 4,096 characters).

export const GOOGLE_CHAT_TEXT = 4096;
const MESSAGE_FIELDS = new Set([
  "text",
  "cardsV2",
  "thread",
  "fallbackText",
  "accessoryWidgets",
  "privateMessageViewer",
]);
const googleError = (code: number, status: string, message: string) => json(code, { error: { code, message, status } });

export function googleChatApi(request: ReceivedRequest): Answer {
  const space = /\/v1\/spaces\/([^/]+)\/messages$/.exec(request.path)?.[1];
  if (!space) return googleError(404, "NOT_FOUND", "Requested entity was not found.");
  const query = new URLSearchParams(request.query);
  if (!query.get("key")) return googleError(403, "PERMISSION_DENIED", "The request is missing a valid API key.");
  if (!query.get("token"))
    return googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
  const body = isJson(request) ? parse(request.body) : undefined;
  if (!isObject(body)) return googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received.");
  const unknown = Object.keys(body).find((name) => !MESSAGE_FIELDS.has(name));
  if (unknown)
    return googleError(
      400,
      "INVALID_ARGUMENT",
      `Invalid JSON payload received. Unknown name "${unknown}" at 'message': Cannot find field.`,
    );
  if (body.text !== undefined && typeof body.text !== "string")
    return googleError(400, "INVALID_ARGUMENT", "Invalid value at 'message.text' (TYPE_STRING).");
  const text = typeof body.text === "string" ? body.text : "";
  if (text.length === 0 && body.cardsV2 === undefined)
    return googleError(400, "INVALID_ARGUMENT", "Message cannot be empty.");
  if (text.length > GOOGLE_CHAT_TEXT)
    return googleError(
      400,
      "INVALID_ARGUMENT",
      `Message text is longer than ${GOOGLE_CHAT_TEXT} characters (${text.length}).`,
    );
  return json(200, {
    name: `spaces/${space}/messages/${Math.random().toString(36).slice(2)}`,
    sender: { name: "users/114022495153014004089", displayName: "LinkLens", type: "BOT" },
    text,
    createTime: new Date().toISOString(),
    space: { name: `spaces/${space}`, type: "ROOM" },
  });
}

// ---------------------------------------------------------------------------------------------------
// Telegram: the Bot API's sendMessage (docs: core.telegram.org/bots/api#sendmessage, #html-style).

export const TELEGRAM_TEXT = 4096;
const TELEGRAM_TAGS = new Set([
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "span",
  "tg-spoiler",
  "a",
  "tg-emoji",
  "code",
  "pre",
  "blockquote",
]);

export interface TelegramHtml {
  /** The text Telegram shows: tags gone, entities decoded. */
  plain: string;
  /** Every start tag, in order, with its attributes. */
  tags: Array<{ name: string; attributes: Record<string, string> }>;
}

const decode = (text: string) =>
  text.replace(/&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/gi, (_, name: string) => {
    const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
    if (named[name.toLowerCase()]) return named[name.toLowerCase()] ?? "";
    return String.fromCodePoint(
      name[1]?.toLowerCase() === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10),
    );
  });

/**
 * Telegram's HTML style: only its tags (and `a` with an href, `span` with class tg-spoiler), closed in
 * order; only `&lt;`, `&gt;`, `&amp;`, `&quot;` and numeric entities. Answers the text Telegram shows and
 * the tags, or the "can't parse entities" reason Telegram gives.
 */
export function parseTelegramHtml(html: string): TelegramHtml | { error: string } {
  const open: string[] = [];
  const tags: TelegramHtml["tags"] = [];
  let plain = "";
  let index = 0;
  while (index < html.length) {
    const rest = html.slice(index);
    if (rest.startsWith("<")) {
      const tag = /^<(\/?)([a-z][a-z0-9-]*)((?:\s+[a-z-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*>/i.exec(rest);
      if (!tag) return { error: `Can't find end of the tag starting at byte offset ${index}` };
      const [whole, closing, rawName = "", rawAttributes = ""] = tag;
      const name = rawName.toLowerCase();
      if (!TELEGRAM_TAGS.has(name)) return { error: `Unsupported start tag "${name}" at byte offset ${index}` };
      if (closing) {
        if (open.pop() !== name)
          return { error: `Unmatched end tag at byte offset ${index}, expected "</${open.at(-1) ?? ""}>"` };
      } else {
        const attributes = Object.fromEntries(
          [...rawAttributes.matchAll(/([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)].map((m) => [
            (m[1] ?? "").toLowerCase(),
            decode(m[2] ?? m[3] ?? ""),
          ]),
        );
        if (name === "a" && !/^(https?|tg):/i.test(attributes.href ?? ""))
          return { error: `Wrong URL in the a tag at byte offset ${index}` };
        if (name === "span" && attributes.class !== "tg-spoiler")
          return { error: `Tag "span" must have class "tg-spoiler" at byte offset ${index}` };
        tags.push({ name, attributes });
        open.push(name);
      }
      index += whole.length;
    } else if (rest.startsWith("&")) {
      const entity = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.exec(rest);
      if (!entity) return { error: `Unsupported HTML entity at byte offset ${index}` };
      plain += decode(entity[0]);
      index += entity[0].length;
    } else {
      const next = rest.search(/[<&]/);
      const chunk = next === -1 ? rest : rest.slice(0, next);
      plain += chunk;
      index += chunk.length;
    }
  }
  if (open.length > 0) return { error: `Can't find end tag corresponding to start tag "${open.at(-1) ?? ""}"` };
  return { plain, tags };
}

const telegramError = (code: number, description: string) => json(code, { ok: false, error_code: code, description });

export function telegramApi(request: ReceivedRequest): Answer {
  if (!/\/bot\d+:[\w-]+\/sendMessage$/.test(request.path)) return telegramError(404, "Not Found");
  const body = isJson(request) ? parse(request.body) : undefined;
  if (!isObject(body)) return telegramError(400, "Bad Request: can't parse JSON object");
  const chatId = body.chat_id ?? new URLSearchParams(request.query).get("chat_id");
  if (chatId === undefined || chatId === null || chatId === "")
    return telegramError(400, "Bad Request: chat_id is empty");
  if (typeof body.text !== "string" || body.text.trim() === "")
    return telegramError(400, "Bad Request: message text is empty");
  let plain = body.text;
  let tags: TelegramHtml["tags"] = [];
  if (body.parse_mode !== undefined && !["HTML", "MarkdownV2", "Markdown"].includes(String(body.parse_mode)))
    return telegramError(400, "Bad Request: unsupported parse_mode");
  if (body.parse_mode === "HTML") {
    const parsed = parseTelegramHtml(body.text);
    if ("error" in parsed) return telegramError(400, `Bad Request: can't parse entities: ${parsed.error}`);
    ({ plain, tags } = parsed);
  }
  if (plain.length > TELEGRAM_TEXT) return telegramError(400, "Bad Request: message is too long");
  const preview = body.link_preview_options;
  if (
    preview !== undefined &&
    (!isObject(preview) || (preview.is_disabled !== undefined && typeof preview.is_disabled !== "boolean"))
  )
    return telegramError(400, "Bad Request: can't parse link preview options");
  if (body.parse_mode !== "HTML" || !isObject(preview) || preview.is_disabled !== true)
    return telegramError(400, "LinkLens rule: parse_mode HTML and link_preview_options.is_disabled true");
  // The real answer echoes the message: usually far more than the 1 KiB a sender keeps.
  return json(200, {
    ok: true,
    result: {
      message_id: Math.floor(Math.random() * 1e6),
      from: { id: 7000000001, is_bot: true, first_name: "LinkLens", username: "linklens_alerts_bot" },
      chat: { id: Number(chatId) || chatId, title: "SEO alerts", type: "supergroup" },
      date: Math.floor(Date.now() / 1000),
      text: plain,
      entities: tags.map((tag) => ({
        type: tag.name === "a" ? "text_link" : "bold",
        ...(tag.attributes.href ? { url: tag.attributes.href } : {}),
      })),
      link_preview_options: { is_disabled: true },
    },
  });
}

const SERVICES: Record<ChatService, (request: ReceivedRequest) => Answer> = {
  discord: discordApi,
  teams: teamsApi,
  google_chat: googleChatApi,
  telegram: telegramApi,
};

/** A receiver path that answers as `service` does. */
export function chatService(service: ChatService): Behavior {
  return { kind: "respond", with: SERVICES[service] };
}

/** A request as the receiver records it, for unit tests that judge a body without a server. */
export function asRequest(body: string, path: string, query = ""): ReceivedRequest {
  return { path, query, method: "POST", headers: { "content-type": "application/json" }, body, at: Date.now() };
}
