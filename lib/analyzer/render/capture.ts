import { randomBytes } from "node:crypto";
import type { CDPSession, HTTPResponse, Viewport } from "puppeteer-core";
import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { headersSayChallenge } from "@/lib/analyzer/challenge";
import type { PreparedPageReady } from "@/lib/analyzer/render/context";
import { throwIfBlocked } from "@/lib/analyzer/render/request-guard";
import { upstream } from "@/lib/analyzer/render/watchdog";
import { robotsHeaderNofollow, robotsHeaderNoindex } from "@/lib/analyzer/robots/directives";
import { settle, type SettleResult } from "@/lib/analyzer/render/settle";
import type { Stopwatch } from "@/lib/analyzer/timings";
import { HIDDEN_ATTRIBUTE, markHiddenLinks } from "@/lib/analyzer/render/visibility";
import { pageScript } from "@/lib/analyzer/render/page-script";
import {
  adoptParsedClosedRoots,
  disarmInertTemplates,
  hasClosedDeclarativeRoot,
  type ShadowKeeperAccess,
} from "@/lib/analyzer/render/shadow-roots";
import { growViewport } from "@/lib/analyzer/render/viewport";
import { withTimeout } from "@/lib/timeout";

/**
 * One render's page load and serialization, in its prepared page: navigate, turn the main document's
 * answer into the right error (blocked, HTTP status, not HTML), let the page settle, grow the viewport to
 * the document and let it settle again (viewport.ts), give the start viewport back for the visibility pass,
 * and serialize the DOM, shadow roots included, within the size cap.
 *
 * The serialization is Chromium's own (DevTools' DOM.getOuterHTML with every shadow root): each shadow root,
 * open or closed, attached by a script or by the parser, is written as a `<template shadowrootmode>` in its
 * host, and the worker flattens them (lib/analyzer/document/shadow-trees.ts), as it does for pasted markup.
 * Measured against flattening in the page (a script walking the flattened tree and writing markup): the
 * native serializer does not slow down with the page's size as a script does (www.reddit.com, 2.2 MB: the
 * same time as page.content(), about 100–140 ms), it reaches closed roots the parser attached, which no
 * script can, and paste mode and the raw HTML need the worker's flattening anyway.
 */

/** What a page load gives the renderer (RenderResult without its timings). */
export interface CapturedPage {
  /** The document's URL after redirects (document.URL at serialization time). */
  finalUrl: string;
  /** The serialized DOM after scripts ran, shadow roots as declarative templates (see above). */
  html: string;
  /** The main response's X-Robots-Tag said nofollow or none (for us, googlebot or everyone). */
  headerNofollow: boolean;
  /** The main response's X-Robots-Tag said noindex or none (same scoping). */
  headerNoindex: boolean;
  /** The main response's headers say it is a bot challenge (Cloudflare's cf-mitigated). */
  headerChallenge: boolean;
  /** HTTP status of the main document's final response. */
  status: number;
  /** With signals: the nonce of the visibility pass's marks in `html` (visibility.ts); else null. */
  hiddenMarker: string | null;
  /** With signals: the navigation response body as received (null when it could not be read); else null. */
  rawBody: Buffer | null;
  /** The main response's Content-Type header (the raw body's charset), or null. */
  contentType: string | null;
  /** How the wait after load ended and what it waited for (settle.ts); none when the navigation did not finish. */
  settled?: SettleResult;
  /** The height the viewport grew to (viewport.ts), and how the second settle ended; null when it did not grow. */
  grown: { height: number; settled: SettleResult | null } | null;
  /** How page functions run later in this page (the evidence camera) reach its shadow roots. */
  shadow: ShadowKeeperAccess;
}

/** Limits of one capture, picked from the renderer's options. */
export interface CaptureSettings {
  /** Serialized-DOM cap in bytes: above it the page is UNPROCESSABLE_PAGE. */
  maxHtmlBytes: number;
  /** After load: quiet time for network and DOM, and the cap on that wait. */
  settleQuietMs: number;
  settleMaxMs: number;
  /** The viewport the page was made with: the hidden rule and the camera see it; the render grows it meanwhile. */
  viewport: Readonly<Viewport>;
  /** Signed-in renders: mark each link's visibility and keep the navigation response body (placement-verdict.md). */
  signals?: boolean;
  /** With signals: told the body as soon as it is read (before the page settles), so its parse can start meanwhile. */
  onRawBody?: RawBodyListener;
}

/** Receives the navigation response body, its Content-Type and the document's URL (the raw links' base). */
export type RawBodyListener = (body: Buffer, contentType: string | null, url: string) => void;

const HTML_TYPES = ["text/html", "application/xhtml+xml"];

function isHtmlContentType(value: string | undefined): boolean | null {
  if (!value) return null;
  const type = value.split(";")[0]?.trim().toLowerCase() ?? "";
  return HTML_TYPES.includes(type);
}

function remaining(deadline: number): number {
  return Math.max(0, deadline - Date.now());
}

/** Loads `url` in the prepared page by `deadline` (epoch ms) and serializes it; throws ApiError (see createRenderer). */
export async function loadAndCapture(
  prepared: PreparedPageReady,
  url: URL,
  deadline: number,
  clock: Stopwatch,
  settings: CaptureSettings,
): Promise<CapturedPage> {
  const session = prepared.session;
  const { page, network, state, cdp, shadow } = prepared.page;
  clock.lap("pageSetup");
  let gotoError: unknown = null;
  try {
    await page.goto(url.href, { waitUntil: "load", timeout: Math.max(1, remaining(deadline)) });
  } catch (error) {
    gotoError = error;
  }

  throwIfBlocked(state, session, url);
  const response = state.mainResponse;
  if (!response) {
    const reason = state.failure ?? (gotoError instanceof Error ? gotoError.message : "no response");
    if (/timeout/i.test(reason) || /TimeoutError/.test(String(gotoError)))
      throw upstream("The page did not answer in time.", gotoError);
    throw upstream(`The page could not be loaded (${reason}).`, gotoError);
  }
  const status = response.status();
  if (status >= 500)
    throw new ApiError("UPSTREAM_ERROR", `The page answered HTTP ${status}.`, { upstreamStatus: status });
  if (status >= 400)
    throw new ApiError("UNPROCESSABLE_PAGE", `The page answered HTTP ${status}.`, { upstreamStatus: status });
  const headers = response.headers();
  let isHtml = isHtmlContentType(headers["content-type"]);
  if (isHtml === false)
    throw new ApiError("UNPROCESSABLE_PAGE", `The page is not HTML (${headers["content-type"] ?? "unknown type"}).`, {
      upstreamStatus: status,
    });

  clock.lap("navigation");
  // The body as the server sent it (Chromium keeps it; decoded from gzip/br, not from its charset), read
  // while the page settles; its listener starts the parse of its links meanwhile.
  const rawBody = settings.signals ? readBody(response, settings.maxHtmlBytes, deadline) : null;
  const listener = settings.onRawBody;
  if (rawBody && listener)
    void rawBody.then((body) => body && listener(body, headers["content-type"] ?? null, response.url()));
  const settleSettings = { quietMs: settings.settleQuietMs, maxMs: settings.settleMaxMs };
  const settled = gotoError === null ? await settle(page, network, deadline, settleSettings) : undefined;
  clock.lap("settle");
  // Google's tall viewport: content that loads when it comes into view is in the DOM read below.
  const grown = settled
    ? await growViewport(prepared.page, settings.viewport, deadline, settled, settleSettings)
    : null;
  if (grown) clock.lap("grow");
  // The start viewport for the hidden rule and the camera; the page is frozen first, so giving it back
  // changes nothing that was captured.
  await grown?.restore();
  // A page still loading at the deadline is analysed as it stands, if it has a document at all.
  const body = rawBody ? await rawBody : null;
  if (rawBody) clock.lap("rawBody");
  // Signed-in renders: the visibility pass marks every link (visibility.ts) before the DOM is serialized,
  // closed roots the parser attached included (no script can reach them: shadow-roots.ts).
  const hiddenMarker = settings.signals ? randomBytes(9).toString("base64url") : null;
  if (hiddenMarker !== null) {
    if (body && hasClosedDeclarativeRoot(body)) await adoptParsedClosedRoots(cdp, shadow);
    const marked = await page
      .evaluate(pageScript(markHiddenLinks, hiddenMarker, HIDDEN_ATTRIBUTE, shadow.key, shadow.secret))
      .catch(() => null);
    // Not run (the page's main thread never came back, or it replaced its document): hidden stays unknown.
    if (marked === null) log.debug({ url: url.href }, "visibility pass failed");
    clock.lap("visibility");
  }
  const snapshot = await page
    .evaluate(() => {
      // With scripting on, <noscript> holds text, not links. Our parser runs with scripting off and
      // would turn that text back into markup (a <noscript><a> in <head> even escapes into <body>),
      // so the elements go before serializing.
      for (const element of Array.from(document.querySelectorAll("noscript"))) element.remove();
      return {
        url: document.URL,
        type: document.contentType,
        size: document.documentElement ? document.documentElement.outerHTML.length : -1,
      };
    })
    .catch(() => null);
  if (!snapshot || snapshot.size < 0 || snapshot.url.startsWith("chrome-error:")) {
    throw upstream("The page did not produce a document in time.", gotoError);
  }
  isHtml ??= HTML_TYPES.includes(snapshot.type);
  if (!isHtml)
    throw new ApiError("UNPROCESSABLE_PAGE", `The page is not HTML (${snapshot.type}).`, { upstreamStatus: status });
  const maxBytes = settings.maxHtmlBytes;
  // Characters never outnumber UTF-8 bytes, so this cheap count can reject before we serialize.
  if (snapshot.size > maxBytes) throw new ApiError("UNPROCESSABLE_PAGE", "The rendered page is too large to analyse.");
  await page.evaluate(pageScript(disarmInertTemplates, shadow.key, shadow.secret)).catch(() => undefined);
  const html = await serializeDocument(cdp);
  if (Buffer.byteLength(html, "utf8") > maxBytes)
    throw new ApiError("UNPROCESSABLE_PAGE", "The rendered page is too large to analyse.");

  return {
    finalUrl: snapshot.url || response.url(),
    html,
    headerNofollow: robotsHeaderNofollow(headers["x-robots-tag"]),
    headerNoindex: robotsHeaderNoindex(headers["x-robots-tag"]),
    headerChallenge: headersSayChallenge(headers),
    status,
    hiddenMarker,
    rawBody: body,
    contentType: headers["content-type"] ?? null,
    settled,
    grown: grown?.height ? { height: grown.height, settled: grown.settled } : null,
    shadow,
  };
}

/** The document as Chromium serializes it with every shadow root (see the header): doctype, comments and all. */
async function serializeDocument(cdp: CDPSession): Promise<string> {
  const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
  const { outerHTML } = await cdp.send("DOM.getOuterHTML", { nodeId: root.nodeId, includeShadowDOM: true });
  // getDocument switched the DOM agent on for this session; a kept page's later changes need not be reported.
  void cdp.send("DOM.disable").catch(() => undefined);
  return outerHTML;
}

/** The main response's body within the size cap, or null when Chromium no longer has it (or it never ended). */
async function readBody(response: HTTPResponse, maxBytes: number, deadline: number): Promise<Buffer | null> {
  const body = await withTimeout(
    response.buffer().catch(() => null),
    Math.max(1_000, Math.min(5_000, remaining(deadline))),
  );
  if (!body || body.length > maxBytes) return null;
  return Buffer.from(body);
}
