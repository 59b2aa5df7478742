import type { IncomingMessage, ServerResponse } from "node:http";
import { VERDICT_TARGET_PATH } from "./fixture-verdict";

/**
 * Fixture pages for Google's view (google-view.md §2), served by the fixture site: a page for every rule,
 * each carrying (or not) a link to the verdict target (VERDICT_TARGET_PATH) depending on who asks —
 * Googlebot's User-Agent seen by the server, navigator.userAgent seen by the page's script, or the phone's
 * width — and a probe that writes what the page sees of its browser into its links.
 */

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** The tracked link every page here is about. */
export const GOOGLE_TARGET_PATH = VERDICT_TARGET_PATH;

export const GOOGLE_PAGES = {
  /** Server-side cloaking: the link only in the answer to a Googlebot User-Agent. */
  serverCloak: "/google/server-cloak",
  /** Client-side cloaking: the page's script writes the link only when navigator.userAgent says Googlebot. */
  clientCloak: "/google/client-cloak",
  /** The page writes the link only when navigator.userAgent is not Googlebot. */
  hiddenFromGooglebot: "/google/hidden-from-googlebot",
  /** A sidebar link the page removes below 600 px of viewport width (the phone layout). */
  wideSidebar: "/google/wide-sidebar",
  /** 403 for Googlebot's User-Agent; a normal page with the link for everyone else. */
  refuseGooglebot: "/google/refuse-googlebot",
  /** `<meta name="robots" content="noindex">` written by a script only for Googlebot (UA sniffing). */
  noindexMetaForGooglebot: "/google/noindex-meta",
  /** `X-Robots-Tag: noindex` only in the answer to Googlebot's User-Agent. */
  noindexHeaderForGooglebot: "/google/noindex-header",
  /** The same page for everyone: the link counts in both views. */
  same: "/google/same",
  /** Writes what it sees (viewport, DPR, touch, userAgent, userAgentData) into a link's query. */
  probe: "/google/probe",
} as const;

const isGooglebot = (req: IncomingMessage) => /Googlebot/.test(req.headers["user-agent"] ?? "");

function page(title: string, body: string, head = ""): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${head}</head><body><main>${body}</main></body></html>`;
}

function html(res: ServerResponse, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
}

const TARGET = `<a href="${GOOGLE_TARGET_PATH}">our sponsor</a>`;
const OTHER = `<a href="/about">About</a>`;

export function googleViewRoutes(): Record<string, Route> {
  return {
    [GOOGLE_PAGES.serverCloak]: (req, res) =>
      html(res, page("Server cloak", `<p>Article</p>${OTHER}${isGooglebot(req) ? TARGET : ""}`)),
    [GOOGLE_PAGES.clientCloak]: (_req, res) =>
      html(
        res,
        page(
          "Client cloak",
          `<p>Article</p>${OTHER}<div id="box"></div>
<script>if (/Googlebot/.test(navigator.userAgent)) document.getElementById("box").innerHTML = ${JSON.stringify(TARGET)};</script>`,
        ),
      ),
    [GOOGLE_PAGES.hiddenFromGooglebot]: (_req, res) =>
      html(
        res,
        page(
          "Not for Googlebot",
          `<p>Article</p>${OTHER}<div id="box"></div>
<script>if (!/Googlebot/.test(navigator.userAgent)) document.getElementById("box").innerHTML = ${JSON.stringify(TARGET)};</script>`,
        ),
      ),
    [GOOGLE_PAGES.wideSidebar]: (_req, res) =>
      html(
        res,
        page(
          "Wide sidebar",
          `<p>Article</p>${OTHER}<div id="sidebar">${TARGET}</div>
<script>if (window.innerWidth < 600) document.getElementById("sidebar").remove();</script>`,
        ),
      ),
    [GOOGLE_PAGES.refuseGooglebot]: (req, res) => {
      if (isGooglebot(req)) {
        res.writeHead(403, { "content-type": "text/html" }).end("<h1>Forbidden</h1>");
        return;
      }
      html(res, page("Refuses Googlebot", `<p>Article</p>${OTHER}${TARGET}`));
    },
    [GOOGLE_PAGES.noindexMetaForGooglebot]: (_req, res) =>
      html(
        res,
        page(
          "Noindex for Googlebot (meta)",
          `<p>Article</p>${OTHER}${TARGET}
<script>if (/Googlebot/.test(navigator.userAgent)) { const m = document.createElement("meta"); m.name = "robots"; m.content = "noindex"; document.head.append(m); }</script>`,
        ),
      ),
    [GOOGLE_PAGES.noindexHeaderForGooglebot]: (req, res) =>
      html(
        res,
        page("Noindex for Googlebot (header)", `<p>Article</p>${OTHER}${TARGET}`),
        isGooglebot(req) ? { "x-robots-tag": "noindex" } : {},
      ),
    [GOOGLE_PAGES.same]: (_req, res) => html(res, page("Same for all", `<p>Article</p>${OTHER}${TARGET}`)),
    [GOOGLE_PAGES.probe]: (_req, res) =>
      html(
        res,
        page(
          "Probe",
          `<div id="box"></div>
<script>
  const seen = new URLSearchParams({
    width: String(window.innerWidth),
    screenWidth: String(screen.width),
    dpr: String(window.devicePixelRatio),
    touch: String(navigator.maxTouchPoints),
    ontouchstart: String("ontouchstart" in window),
    ua: navigator.userAgent,
    brands: navigator.userAgentData ? navigator.userAgentData.brands.map((b) => b.brand).join("|") : "none",
    mobile: navigator.userAgentData ? String(navigator.userAgentData.mobile) : "none",
  });
  const a = document.createElement("a");
  a.href = "/seen?" + seen.toString();
  a.textContent = "seen";
  document.getElementById("box").append(a);
</script>`,
        ),
      ),
  };
}
