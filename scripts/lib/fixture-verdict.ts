import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * Fixture pages of the placement verdict (placement-verdict.md): one page per reason and per edge case,
 * served by the fixture site under /verdict/*, each linking (or not) to VERDICT_TARGET on the same site,
 * plus the site's own /robots.txt (Googlebot may not crawl /verdict/robots-disallowed). robots.txt answers
 * that differ by origin (HTML, huge, 403, 5xx, redirects, a hang) come from small servers of their own
 * (startRobotsOrigins): robots.txt belongs to an origin, and the cache keeps one answer per origin.
 */

/** The tracked target every verdict page links to (a live page of the fixture site). */
export const VERDICT_TARGET_PATH = "/p/verdict-target";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function page(title: string, body: string, head = ""): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

function html(res: ServerResponse, body: string, headers: Record<string, string | string[]> = {}, status = 200): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
}

const A = (attributes = "", text = "our partner") =>
  `<a href="${VERDICT_TARGET_PATH}"${attributes ? ` ${attributes}` : ""}>${text}</a>`;
const main = (inner: string) => `<main><h1>Article</h1><p>Read ${inner} for more.</p></main>`;
const addLinkScript = (where: string) =>
  `<script>window.addEventListener("load", () => { const a = document.createElement("a"); a.href = ${JSON.stringify(VERDICT_TARGET_PATH)}; a.textContent = "our partner"; document.querySelector(${JSON.stringify(where)}).appendChild(a); });</script>`;

/** Each verdict page by path: what a test of it expects is in tests (the reason it provokes). */
export const VERDICT_PAGES: Record<string, Handler> = {
  // counts: in the main content, in the served HTML, visible, followed.
  "/verdict/counts": (_req, res) => html(res, page("Counts", main(A()))),
  "/verdict/missing": (_req, res) => html(res, page("Missing", main("nothing"))),
  // removed_by_script: in the served HTML, gone once the page's script ran.
  "/verdict/removed-by-script": (_req, res) =>
    html(res, page("Removed", `${main(A('id="paid"'))}<script>document.getElementById("paid").remove();</script>`)),
  "/verdict/broken-target": (_req, res) =>
    html(res, page("Broken", main(`<a href="/status/404?verdict">our partner</a>`))),
  "/verdict/nofollow": (_req, res) => html(res, page("Nofollow", main(A('rel="nofollow"')))),
  "/verdict/sponsored": (_req, res) => html(res, page("Sponsored", main(A('rel="sponsored"')))),
  "/verdict/ugc": (_req, res) => html(res, page("UGC", main(A('rel="ugc"')))),
  // hidden, one way each.
  "/verdict/hidden/display-none": (_req, res) =>
    html(res, page("Hidden", main(`<span style="display:none">${A()}</span>`))),
  "/verdict/hidden/visibility": (_req, res) => html(res, page("Hidden", main(A('style="visibility:hidden"')))),
  "/verdict/hidden/collapse": (_req, res) =>
    html(res, page("Hidden", `<main><table><tr style="visibility:collapse"><td>${A()}</td></tr></table></main>`)),
  "/verdict/hidden/opacity": (_req, res) => html(res, page("Hidden", main(`<span style="opacity:0">${A()}</span>`))),
  "/verdict/hidden/zero-box": (_req, res) =>
    html(res, page("Hidden", main(A('style="display:inline-block;width:0;height:0;overflow:hidden"')))),
  "/verdict/hidden/font-size-zero": (_req, res) => html(res, page("Hidden", main(A('style="font-size:0"')))),
  "/verdict/hidden/off-screen": (_req, res) =>
    html(res, page("Hidden", main(A('style="position:absolute;left:-9999px;top:0"')))),
  "/verdict/hidden/clip-path": (_req, res) =>
    html(res, page("Hidden", main(A('style="display:inline-block;clip-path:inset(50%)"')))),
  "/verdict/hidden/sr-only": (_req, res) =>
    html(
      res,
      page(
        "Hidden",
        main(
          `<span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap">${A()}</span>`,
        ),
      ),
    ),
  "/verdict/hidden/collapsed-box": (_req, res) =>
    html(res, page("Hidden", main(`<div style="height:0;overflow:hidden">${A()}</div>`))),
  "/verdict/hidden/by-script": (_req, res) =>
    html(
      res,
      page("Hidden", `${main(A('id="paid"'))}<script>document.getElementById("paid").style.display = "none";</script>`),
    ),
  // Visible, though it looks like a hiding pattern at first sight.
  "/verdict/visible/below-the-fold": (_req, res) =>
    html(res, page("Visible", `<main><div style="height:3000px">tall</div><p>${A()}</p></main>`)),
  "/verdict/visible/image-link": (_req, res) =>
    html(res, page("Visible", main(`<a href="${VERDICT_TARGET_PATH}"><img src="/asset/banner.png" alt=""></a>`))),
  "/verdict/visible/child-visible": (_req, res) =>
    html(
      res,
      page(
        "Visible",
        main(
          `<span style="visibility:hidden"><a href="${VERDICT_TARGET_PATH}" style="visibility:visible">our partner</a></span>`,
        ),
      ),
    ),
  "/verdict/visible/display-contents": (_req, res) =>
    html(
      res,
      page("Visible", main(`<a href="${VERDICT_TARGET_PATH}" style="display:contents"><span>our partner</span></a>`)),
    ),
  // A carousel: slides past the first are translated out of the document, inside a clipping frame.
  "/verdict/carousel": (_req, res) =>
    html(
      res,
      page(
        "Carousel",
        `<main><div style="width:600px;overflow:hidden"><div style="display:flex;width:1800px;transform:translateX(0)">
<div style="width:600px;flex:none"><a href="/p/slide-1">slide one</a></div>
<div style="width:600px;flex:none"><a href="/p/slide-2">slide two</a></div>
<div style="width:600px;flex:none;transform:translateX(1200px)">${A()}</div></div></div></main>`,
      ),
    ),
  // page_noindex: meta, header, header for Google only, other bots' header (not noindex), repeated headers.
  "/verdict/noindex/meta": (_req, res) =>
    html(res, page("Noindex", main(A()), '<meta name="robots" content="noindex, follow">')),
  "/verdict/noindex/meta-googlebot": (_req, res) =>
    html(res, page("Noindex", main(A()), '<meta name="googlebot" content="none">')),
  "/verdict/noindex/header": (_req, res) => html(res, page("Noindex", main(A())), { "x-robots-tag": "noindex" }),
  "/verdict/noindex/header-googlebot": (_req, res) =>
    html(res, page("Noindex", main(A())), { "x-robots-tag": "googlebot: noindex" }),
  "/verdict/noindex/header-other-bot": (_req, res) =>
    html(res, page("Indexed", main(A())), { "x-robots-tag": "bingbot: noindex, otherbot: none" }),
  "/verdict/noindex/header-repeated": (_req, res) =>
    html(res, page("Noindex", main(A())), {
      "x-robots-tag": ["bingbot: noindex", "max-snippet: 20, googlebot: noindex"],
    }),
  "/verdict/noindex/both": (_req, res) =>
    html(res, page("Noindex", main(A()), '<meta name="robots" content="noindex">'), { "x-robots-tag": "noindex" }),
  // robots_disallowed: this site's robots.txt keeps Googlebot out of the path.
  "/verdict/robots-disallowed": (_req, res) => html(res, page("Blocked", main(A()))),
  // Crawler access: robots.txt keeps GPTBot and CCBot out of this path; not a verdict reason (it counts).
  "/verdict/ai-crawlers-blocked": (_req, res) => html(res, page("AI crawlers blocked", main(A()))),
  // script_only: not in the served HTML, added by the page's script.
  "/verdict/script-only": (_req, res) =>
    html(res, page("Script only", `<main><h1>Article</h1><p id="box">Read </p></main>${addLinkScript("#box")}`)),
  // canonical_elsewhere: relative, several (the first wins), and a self-canonical written differently (not elsewhere).
  "/verdict/canonical/relative": (_req, res) =>
    html(res, page("Canonical", main(A()), '<link rel="canonical" href="/verdict/counts">')),
  "/verdict/canonical/several-first-elsewhere": (_req, res) =>
    html(
      res,
      page(
        "Canonical",
        main(A()),
        '<link rel="canonical" href="/verdict/counts"><link rel="canonical" href="/verdict/canonical/several-first-elsewhere">',
      ),
    ),
  "/verdict/canonical/several-first-self": (_req, res) =>
    html(
      res,
      page(
        "Canonical",
        main(A()),
        '<link rel="canonical" href="/verdict/canonical/several-first-self"><link rel="canonical" href="/verdict/counts">',
      ),
    ),
  "/verdict/canonical/self-trailing-slash": (_req, res) =>
    html(
      res,
      page("Canonical", main(A()), '<link rel="canonical" href="/verdict/canonical/self-trailing-slash/#top">'),
    ),
  // page_redirected: the monitored URL ends elsewhere.
  "/verdict/redirect": (_req, res) => res.writeHead(301, { location: "/verdict/redirected-here" }).end(),
  "/verdict/redirected-here": (_req, res) => html(res, page("Moved", main(A()))),
  // boilerplate_region: one landmark each (elements and roles).
  "/verdict/region/header": (_req, res) => html(res, page("Header", `<header>${A()}</header>${main("text")}`)),
  "/verdict/region/nav": (_req, res) => html(res, page("Nav", `<div role="navigation">${A()}</div>${main("text")}`)),
  "/verdict/region/aside": (_req, res) => html(res, page("Aside", `${main("text")}<aside>${A()}</aside>`)),
  "/verdict/region/footer": (_req, res) =>
    html(res, page("Footer", `${main("text")}<div role="contentinfo"><p>${A()}</p></div>`)),
  "/verdict/region/article": (_req, res) => html(res, page("Article", `<article><p>${A()}</p></article>`)),
  // Edge cases of the markup.
  // No <head> (nor <html>, <body>): the parser implies them; the canonical before the text is the head's.
  "/verdict/edge/no-head": (_req, res) =>
    html(res, `<title>No head</title><link rel="canonical" href="/verdict/counts"><p>Read ${A()} now.</p>`),
  // A canonical in <body> is ignored (as Google does): the page is its own.
  "/verdict/edge/canonical-in-body": (_req, res) =>
    html(res, page("Body canonical", `${main(A())}<link rel="canonical" href="/verdict/counts">`)),
  "/verdict/edge/template": (_req, res) => html(res, page("Template", `<main><template>${A()}</template></main>`)),
  "/verdict/edge/shadow-dom": (_req, res) =>
    html(
      res,
      page(
        "Shadow",
        `<main><div id="host"></div></main><script>const root = document.getElementById("host").attachShadow({ mode: "open" }); root.innerHTML = ${JSON.stringify(A())};</script>`,
      ),
    ),
  "/verdict/edge/iframe": (_req, res) =>
    html(res, page("Iframe", `<main><iframe src="/verdict/edge/iframe-content"></iframe></main>`)),
  "/verdict/edge/iframe-content": (_req, res) => html(res, page("Framed", A())),
  "/verdict/edge/area": (_req, res) =>
    html(
      res,
      page(
        "Area",
        `<main><img src="/asset/map.png" usemap="#m" width="200" height="100" alt="map"><map name="m"><area shape="rect" coords="0,0,100,100" href="${VERDICT_TARGET_PATH}" alt="our partner"></map></main>`,
      ),
    ),
  "/verdict/edge/area-hidden-image": (_req, res) =>
    html(
      res,
      page(
        "Area",
        `<main><img src="/asset/map.png" usemap="#m" width="200" height="100" alt="map" style="display:none"><map name="m"><area shape="rect" coords="0,0,100,100" href="${VERDICT_TARGET_PATH}" alt="our partner"></map></main>`,
      ),
    ),
  // A page that forges our visibility mark: it must not decide the verdict.
  "/verdict/edge/forged-mark": (_req, res) =>
    html(res, page("Forged", main(A('data-linklens-hidden="x0" style="display:none"')))),
  // Two matches: a footer link first, then one that counts; the best match is the second.
  "/verdict/two-matches": (_req, res) => html(res, page("Two", `<footer>${A()}</footer>${main(A("", "in the text"))}`)),
  // An article whose links show every signal (the saved audit's view): in the text, hidden, script only, boilerplate.
  "/verdict/showcase": (_req, res) =>
    html(
      res,
      page(
        "Showcase",
        `<header><a href="/p/home">Home</a></header><nav><a href="/p/news">News</a> <a href="/p/sport">Sport</a></nav>
<main><h1>A review</h1><p>We tried <a href="/p/in-the-text">the product in the text</a> for a month.</p>
<p style="position:absolute;left:-9999px"><a href="/p/hidden-offer">a hidden offer</a></p><p id="late">Related: </p></main>
<aside><a href="/p/sidebar">Sidebar link</a></aside><footer><a href="/p/partner" rel="sponsored">Our partner</a></footer>
<script>window.addEventListener("load", () => { const a = document.createElement("a"); a.href = "/p/added-by-script"; a.textContent = "added by script"; document.getElementById("late").appendChild(a); });</script>`,
      ),
    ),
  // Several reasons at once: nofollow in the footer, added by script, on a noindex page.
  "/verdict/many-reasons": (_req, res) =>
    html(
      res,
      page(
        "Many",
        `${main("text")}<footer id="f"></footer><script>window.addEventListener("load", () => { const a = document.createElement("a"); a.href = ${JSON.stringify(VERDICT_TARGET_PATH)}; a.rel = "nofollow"; a.textContent = "x"; document.getElementById("f").appendChild(a); });</script>`,
        '<meta name="robots" content="noindex">',
      ),
    ),
};

/**
 * The fixture site's own robots.txt: Googlebot's group keeps it out of one verdict page, one group for two
 * AI crawlers keeps them out of another (google-view.md §3); everyone else may crawl all.
 */
export const SITE_ROBOTS_TXT = [
  "User-agent: *",
  "Allow: /",
  "",
  "User-agent: Googlebot",
  "Disallow: /verdict/robots-disallowed",
  "Allow: /",
  "",
  "User-agent: GPTBot",
  "User-agent: CCBot",
  "Disallow: /verdict/ai-crawlers-blocked",
  "",
].join("\n");
/** The page SITE_ROBOTS_TXT keeps GPTBot and CCBot out of (and no one else). */
export const AI_BLOCKED_PATH = "/verdict/ai-crawlers-blocked";

/** robots.txt answers that need an origin of their own. */
export type RobotsVariant =
  "html" | "huge" | "forbidden" | "server-error" | "redirect-private" | "redirect-other-host" | "hang" | "disallow-all";

export interface RobotsOrigins {
  /** The origin of each variant (http://127.0.0.1:<port>). */
  origin: Record<RobotsVariant, string>;
  /** ALLOW_PRIVATE_HOSTS entries for every variant's origin. */
  allowEntries: string[];
  /** robots.txt requests per variant. */
  robotsHits(variant: RobotsVariant): number;
  close(): Promise<void>;
}

/** Bytes of the huge robots.txt: more than the 512 KiB read, with a Googlebot rule past the cap. */
export const HUGE_ROBOTS_BYTES = 700 * 1024;

/**
 * One small server per robots.txt variant, each serving /robots.txt its way and /page (a page with the
 * verdict target's link, in main). `privateTarget` is an origin that must never be reached (the canary).
 */
export async function startRobotsOrigins(privateTarget: string): Promise<RobotsOrigins> {
  const variants: RobotsVariant[] = [
    "html",
    "huge",
    "forbidden",
    "server-error",
    "redirect-private",
    "redirect-other-host",
    "hang",
    "disallow-all",
  ];
  const hits = new Map<RobotsVariant, number>();
  const servers: { server: http.Server; sockets: Set<Socket> }[] = [];
  const origin = {} as Record<RobotsVariant, string>;
  const robots = (variant: RobotsVariant, res: ServerResponse) => {
    switch (variant) {
      case "html":
        return html(res, page("Not a robots file", "<p>User-agent: Googlebot</p><p>Disallow: /page</p>"));
      case "huge": {
        res.writeHead(200, { "content-type": "text/plain" });
        const filler = `# ${"x".repeat(1021)}\n`;
        let written = 0;
        res.write("User-agent: Googlebot\nDisallow: /private\n");
        while (written < HUGE_ROBOTS_BYTES) {
          res.write(filler);
          written += filler.length;
        }
        // Past the cap: a reader that stops at 512 KiB never sees this rule.
        return res.end("Disallow: /page\n");
      }
      case "forbidden":
        return res.writeHead(403, { "content-type": "text/plain" }).end("Forbidden");
      case "server-error":
        return res.writeHead(503, { "content-type": "text/plain" }).end("Down");
      case "redirect-private":
        return res.writeHead(302, { location: `${privateTarget}/robots.txt` }).end();
      case "redirect-other-host":
        return res.writeHead(301, { location: `${origin["disallow-all"]}/robots.txt` }).end();
      case "hang":
        return undefined;
      case "disallow-all":
        return res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: Googlebot\nDisallow: /\n");
    }
  };
  for (const variant of variants) {
    const sockets = new Set<Socket>();
    const server = http.createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/robots.txt") {
        hits.set(variant, (hits.get(variant) ?? 0) + 1);
        return robots(variant, res);
      }
      if (path === "/page") return html(res, page(`robots ${variant}`, main(A())));
      if (path === VERDICT_TARGET_PATH) return html(res, page("Target", "ok"));
      res.writeHead(404).end();
    });
    server.on("connection", (socket: Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin[variant] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push({ server, sockets });
  }
  return {
    origin,
    allowEntries: variants.map((variant) => new URL(origin[variant]).host),
    robotsHits: (variant) => hits.get(variant) ?? 0,
    close: async () => {
      for (const { server, sockets } of servers) {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
