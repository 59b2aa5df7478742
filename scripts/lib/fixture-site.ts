import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { SITE_ROBOTS_TXT, VERDICT_PAGES } from "./fixture-verdict";
import { capturePageRoutes } from "./capture-pages";
import { googleViewRoutes } from "./google-view-pages";
import { lateLinkRoutes } from "./late-links";

/**
 * A small web site on 127.0.0.1:<free port> for URL-mode tests and the benchmark. It is private,
 * so callers allow it with ALLOW_PRIVATE_HOSTS=`127.0.0.1:<port>` (see `allowEntry`).
 *
 * `canary` (optional) is the origin of a tripwire server that must never be reached: pages under
 * /canary/* point every kind of request at it, and /redirect-to-canary redirects there.
 */

export interface FixtureSite {
  origin: string;
  port: number;
  /** The ALLOW_PRIVATE_HOSTS entry for this site. */
  allowEntry: string;
  url(path: string): string;
  /** Requests received per path (query included). */
  hits(path: string): number;
  /** Most /slow/* requests in flight at once since start (the link checker's per-host limit). */
  maxInFlightSlow(): number;
  /** Request headers seen per path (last request), for politeness checks. */
  headersOf(path: string): http.IncomingHttpHeaders | undefined;
  /**
   * Serves `path` with this answer until changed (monitor tests change a page between two checks). A test
   * in another process (Playwright) does the same with `PUT /__pages` and a JSON `{path, ...page}` body.
   */
  setPage(path: string, page: DynamicPage): void;
  removePage(path: string): void;
  close(): Promise<void>;
}

/** An answer set by a test: status (default 200), HTML body, extra headers, and a delay before answering. */
export interface DynamicPage {
  status?: number;
  body: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface FixtureSiteOptions {
  /** Origin of the canary, e.g. `http://127.0.0.2:45678`. */
  canary?: string;
  /** A host name that the test's resolver maps to the canary (e.g. `evil.test`), with the canary's port. */
  canaryByName?: string;
  /** Listen on this port instead of a free one (the Playwright e2e run, see scripts/fixture-site.ts). */
  port?: number;
}

function page(title: string, body: string, head = ""): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

// A 1×1 transparent PNG for /asset/* (the snapshot e2e test counts what a visitor's browser requests).
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/** Redirects to other schemes and oddities of the kind, by path: every one must end as BLOCKED_REDIRECT. */
export const OTHER_SCHEME_REDIRECTS: Record<string, { code: number; location: string }> = {
  "/redirect-to/gopher": { code: 301, location: "gopher://example.com:70/1" },
  "/redirect-to/ftp": { code: 302, location: "ftp://example.com/file.txt" },
  "/redirect-to/file": { code: 301, location: "file:///etc/passwd" },
  "/redirect-to/data": { code: 302, location: "data:text/html,<a href=/x>x</a>" },
  "/redirect-to/javascript": { code: 302, location: "javascript:alert(1)" },
  "/redirect-to/mixed-case-gopher": { code: 307, location: "GoPhEr://example.com/" },
  "/redirect-to/scheme-relative": { code: 302, location: "//gopher:70/1" },
};

/** The 300 links of /many: a mix of live, broken and redirected URLs on this site. */
export const MANY_LINKS = 300;

/** /article: links in the served markup, and links its script adds from a fetched list after load. */
export const ARTICLE_STATIC_LINKS = 40;
export const ARTICLE_SCRIPT_LINKS = 10;

/** Starts the fixture site. */
export async function startFixtureSite(options: FixtureSiteOptions = {}): Promise<FixtureSite> {
  const sockets = new Set<Socket>();
  const hits = new Map<string, number>();
  const seenHeaders = new Map<string, http.IncomingHttpHeaders>();
  const dynamic = new Map<string, DynamicPage>();
  let slowInFlight = 0;
  let slowMax = 0;
  const canary = options.canary ?? "http://127.0.0.2:9";
  const canaryName = options.canaryByName ?? "http://evil.test";
  const canaryWs = canary.replace(/^http/, "ws");

  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    "/health": (_req, res) => status(res, 200),
    // The e2e shop: a few links of each kind, one added by a script after load, one 404, and one
    // "external" link to localhost (not allow-listed, so the checker gets no response).
    "/shop": (_req, res) => html(res, shopPage((server.address() as AddressInfo).port)),
    "/shop/about": (_req, res) => html(res, page("About", `<h1>About</h1><a href="/shop">Home</a>`)),
    "/shop/partner": (_req, res) => html(res, page("Partner", `<h1>Partner</h1><a href="/shop">Home</a>`)),
    "/shop/added-by-script": (_req, res) => html(res, page("Added", `<h1>Added</h1><a href="/shop">Home</a>`)),
    "/": (_req, res) =>
      html(
        res,
        page("Home", `<a href="/about">About</a> <a href="https://example.com/">Example</a> <a href="#top">Top</a>`),
      ),
    "/about": (_req, res) => html(res, page("About", `<a href="/">Home</a>`)),

    // Links added by scripts: one at load, one 300 ms later, one after a fetch.
    "/scripted": (_req, res) =>
      html(
        res,
        page(
          "Scripted",
          `<a href="/static">static</a><div id="box"></div>
<script>
  const add = (href, text) => { const a = document.createElement('a'); a.href = href; a.textContent = text; document.getElementById('box').appendChild(a); };
  window.addEventListener('load', () => {
    add('/added-at-load', 'at load');
    setTimeout(() => add('/added-after-300ms', 'after 300 ms'), 300);
    fetch('/api/links').then(r => r.json()).then(list => list.forEach(h => add(h, 'fetched')));
  });
</script>`,
        ),
      ),
    "/api/links": (_req, res) => {
      setTimeout(
        () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(["/from-fetch"])),
        150,
      );
    },
    "/static": (_req, res) => html(res, page("Static", "ok")),

    // Redirects: a 301 chain that ends on a page, a loop, and a redirect to a non-http scheme.
    "/chain/1": (_req, res) => redirect(res, 301, "/chain/2"),
    "/chain/2": (_req, res) => redirect(res, 301, "/chain/3"),
    "/chain/3": (_req, res) => redirect(res, 302, "/chain/end"),
    "/chain/end": (_req, res) => html(res, page("End of chain", `<a href="/">home</a>`)),
    "/loop/a": (_req, res) => redirect(res, 302, "/loop/b"),
    "/loop/b": (_req, res) => redirect(res, 302, "/loop/a"),
    "/redirect-to-file": (_req, res) => redirect(res, 302, "file:///etc/passwd"),
    // Redirects to schemes other than http(s) (BLOCKED_REDIRECT, as /redirect-to-file), and a scheme-relative
    // Location whose "host" is a scheme name: it stays http, to port 70, which is not a public port.
    ...Object.fromEntries(
      Object.entries(OTHER_SCHEME_REDIRECTS).map(([path, { code, location }]) => [
        path,
        (_req: IncomingMessage, res: ServerResponse) => redirect(res, code, location),
      ]),
    ),
    "/redirect-to-canary": (_req, res) => redirect(res, 302, `${canary}/from-redirect`),
    "/redirect-to-canary-name": (_req, res) => redirect(res, 302, `${canaryName}/from-redirect`),
    "/redirect-to-canary-https": (_req, res) => redirect(res, 302, `https://${new URL(canary).host}/from-redirect`),
    "/chain-to-canary": (_req, res) => redirect(res, 301, "/redirect-to-canary"),
    "/js-redirect-to-canary": (_req, res) =>
      html(
        res,
        page(
          "JS redirect",
          `<a href="/stay">stay</a><script>setTimeout(() => { location.href = ${JSON.stringify(`${canary}/js-redirect`)}; }, 50)</script>`,
        ),
      ),

    // Link-check targets.
    "/status/200": (_req, res) => html(res, page("200", "ok")),
    "/status/301": (_req, res) => redirect(res, 301, "/status/200"),
    "/status/403": (_req, res) => status(res, 403),
    "/status/404": (_req, res) => status(res, 404),
    "/status/410": (_req, res) => status(res, 410),
    "/status/500": (_req, res) => status(res, 500),
    "/status/head-405": (req, res) => (req.method === "HEAD" ? status(res, 405) : html(res, page("GET only", "ok"))),
    "/status/head-drop": (req, res) =>
      req.method === "HEAD" ? req.socket.destroy() : html(res, page("GET only", "ok")),
    "/status/six-redirects": (_req, res) => redirect(res, 301, "/hop/1"),
    "/status/to-canary": (_req, res) => redirect(res, 302, `${canary}/from-link-check`),
    "/status/to-canary-name": (_req, res) => redirect(res, 302, `${canaryName}/from-link-check`),
    "/status/to-ftp": (_req, res) => redirect(res, 302, "ftp://example.com/"),
    "/status/big": (_req, res) => {
      // A body no link check should read: the checker must cancel it.
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < 512 && res.write(chunk)) sent += 1;
        if (sent < 512) res.once("drain", pump);
        else res.end();
      };
      pump();
    },

    // Pages that fail in the ways the renderer must tell apart.
    "/hang": () => undefined, // never answers
    "/never-loads": (_req, res) =>
      // The document arrives at once, but an iframe never answers, so `load` never fires.
      html(
        res,
        page(
          "Never loads",
          `<a href="/link-before-hang">before</a><script>document.write('<a href="/scripted-link">scripted</a>')</script><iframe src="/hang"></iframe>`,
        ),
      ),
    "/never-ends": (_req, res) => {
      // The main document itself never finishes: headers and some links, then silence.
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.write(
        `<!doctype html><html><head><title>Never ends</title></head><body><a href="/partial-1">one</a><a href="/partial-2">two</a>`,
      );
    },
    "/busy-loop": (_req, res) =>
      // The renderer's main thread never comes back: only the watchdog can end this render.
      html(
        res,
        page("Busy", `<a href="/before-loop">before</a><script>setTimeout(() => { for (;;) {} }, 50)</script>`),
      ),
    "/text": (_req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("just text, <a href='/x'>not a link</a>"),
    "/json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"),
    "/pdf": (_req, res) => res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4\n%%EOF\n"),
    "/not-found": (_req, res) => html(res, page("Not found", "<a href='/'>home</a>"), 404),
    "/unavailable": (_req, res) => html(res, page("Unavailable", "down"), 503),
    "/huge": (_req, res) => {
      // 11 MiB of markup: over the 10 MiB cap once serialized.
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<!doctype html><html><body>");
      const block = `<p>${"x".repeat(1023)}</p>`;
      for (let i = 0; i < 11 * 1024; i += 1) res.write(block);
      res.end("</body></html>");
    },
    "/dialogs": (_req, res) =>
      html(
        res,
        page(
          "Dialogs",
          `<a href="/a">a</a><script>alert('hi'); confirm('sure?'); window.open('/popup'); window.addEventListener('load', () => { const a = document.createElement('a'); a.href = '/after-dialogs'; a.textContent = 'after'; document.body.appendChild(a); });</script>`,
        ),
      ),
    "/download": (_req, res) =>
      res
        .writeHead(200, {
          "content-type": "application/octet-stream",
          "content-disposition": "attachment; filename=x.bin",
        })
        .end("bin"),

    // X-Robots-Tag variants.
    "/robots/nofollow": (_req, res) =>
      html(res, page("nofollow", "<a href='/'>x</a>"), 200, { "x-robots-tag": "nofollow" }),
    "/robots/none": (_req, res) => html(res, page("none", "<a href='/'>x</a>"), 200, { "x-robots-tag": "none" }),
    "/robots/googlebot": (_req, res) =>
      html(res, page("googlebot", "<a href='/'>x</a>"), 200, { "x-robots-tag": "googlebot: noindex, nofollow" }),
    "/robots/otherbot": (_req, res) =>
      html(res, page("otherbot", "<a href='/'>x</a>"), 200, { "x-robots-tag": "otherbot: nofollow" }),
    "/robots/noindex": (_req, res) =>
      html(res, page("noindex", "<a href='/'>x</a>"), 200, { "x-robots-tag": "noindex" }),

    // Everything a page can do to reach another host, pointed at the canary.
    "/canary/everything": (_req, res) => html(res, canaryPage(canary, canaryWs, canaryName)),
    "/canary/worker.js": (_req, res) => {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(
        `fetch(${JSON.stringify(`${canary}/worker-fetch`)}).catch(() => {}); try { importScripts(${JSON.stringify(`${canary}/worker-import.js`)}); } catch (e) {} postMessage('done');`,
      );
    },
    "/canary/sw.js": (_req, res) =>
      res
        .writeHead(200, { "content-type": "text/javascript" })
        .end(`self.addEventListener('install', () => fetch(${JSON.stringify(`${canary}/sw-fetch`)}));`),

    // Placement verdict: a page per reason and edge case (scripts/lib/fixture-verdict.ts), and this site's robots.txt.
    ...VERDICT_PAGES,
    "/robots.txt": (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(SITE_ROBOTS_TXT),
  };

  // /article: a news-style page for the URL-mode benchmark (scripts/bench-http.ts): navigation, body
  // text with inline links, a footer, and a "related" box its script fills from a fetched list.
  routes["/article"] = (_req, res) => html(res, articlePage());
  routes["/article/related"] = (_req, res) => {
    const list = Array.from({ length: ARTICLE_SCRIPT_LINKS }, (_, i) => ({
      href: `/p/related-${i}`,
      title: `Related story ${i}`,
    }));
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list)), 80);
  };
  routes["/article/style.css"] = (_req, res) =>
    res
      .writeHead(200, { "content-type": "text/css" })
      .end("body{font:17px/1.6 Georgia,serif;max-width:42rem;margin:auto} nav a{margin-right:1rem}");

  Object.assign(routes, lateLinkRoutes(), capturePageRoutes(), googleViewRoutes());

  // Render isolation (tests/integration/url-mode/isolation.test.ts): /isolation/write leaves every kind
  // of state a page can leave (cookie, localStorage, sessionStorage, IndexedDB, Cache Storage, HTTP
  // cache) and reports what it can read back as /isolation/self?…; /isolation/read reports what it finds
  // as /isolation/state?…. Both hold a timer while they work, so the render waits for the report.
  const readState = `function readState(target) {
    const found = { cookie: document.cookie ? "leak" : "none", local: localStorage.getItem("ll") || "none", session: sessionStorage.getItem("ll") || "none" };
    const idb = new Promise((resolve) => {
      const open = indexedDB.open("ll", 1);
      open.onupgradeneeded = () => { open.result.createObjectStore("s"); };
      open.onsuccess = () => {
        const get = open.result.transaction("s", "readonly").objectStore("s").get("k");
        get.onsuccess = () => resolve(get.result || "none");
        get.onerror = () => resolve("error");
      };
      open.onerror = () => resolve("error");
    });
    const cache = caches.has("ll").then((has) => (has ? "leak" : "none"), () => "error");
    return Promise.all([idb, cache]).then(([idbValue, cacheValue]) => {
      found.idb = idbValue;
      found.cache = cacheValue;
      const a = document.createElement("a");
      a.href = target + "?" + new URLSearchParams(found).toString();
      a.textContent = "state";
      document.body.appendChild(a);
    });
  }`;
  routes["/isolation/write"] = (_req, res) =>
    html(
      res,
      page(
        "Write state",
        `<a href="/wrote">wrote</a><script src="/isolation/cacheable.js"></script>
<script>
  ${readState}
  const hold = setTimeout(() => {}, 450);
  document.cookie = "ll_js=leak; path=/; max-age=3600";
  localStorage.setItem("ll", "leak");
  sessionStorage.setItem("ll", "leak");
  const written = new Promise((resolve) => {
    const open = indexedDB.open("ll", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("s");
    open.onsuccess = () => { const tx = open.result.transaction("s", "readwrite"); tx.objectStore("s").put("leak", "k"); tx.oncomplete = resolve; tx.onerror = resolve; };
    open.onerror = resolve;
  });
  const cached = caches.open("ll").then((cache) => cache.put("/isolation/cached", new Response("leak"))).catch(() => {});
  Promise.all([written, cached]).then(() => readState("/isolation/self")).then(() => clearTimeout(hold));
</script>`,
      ),
      200,
      { "set-cookie": "ll_http=leak; Path=/; Max-Age=3600" },
    );
  routes["/isolation/cacheable.js"] = (_req, res) =>
    res
      .writeHead(200, { "content-type": "text/javascript", "cache-control": "public, max-age=3600" })
      .end("window.cacheableLoaded = true;");
  routes["/isolation/read"] = (_req, res) =>
    html(
      res,
      page(
        "Read state",
        `<script src="/isolation/cacheable.js"></script>
<script>
  ${readState}
  const hold = setTimeout(() => {}, 450);
  readState("/isolation/state").then(() => clearTimeout(hold));
</script>`,
      ),
    );

  // /many: 300 links to this site (200s, 404s, redirects) for the checker and the benchmark.
  routes["/many"] = (_req, res) => {
    const links: string[] = [];
    for (let i = 0; i < MANY_LINKS; i += 1) {
      const kind = i % 10 === 0 ? `/status/404?i=${i}` : i % 10 === 1 ? `/status/301?i=${i}` : `/p/${i}`;
      links.push(`<li><a href="${kind}">link ${i}</a></li>`);
    }
    html(res, page("Many links", `<ul>${links.join("")}</ul>`));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fixture");
    const key = url.pathname + url.search;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + (url.search ? 1 : 0));
    seenHeaders.set(url.pathname, req.headers);
    if (url.pathname === "/__pages" && req.method === "PUT") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const { path, remove, ...page } = JSON.parse(body) as DynamicPage & { path: string; remove?: boolean };
        if (remove) dynamic.delete(path);
        else dynamic.set(path, page);
        status(res, 204);
      });
      return;
    }
    const set = dynamic.get(url.pathname);
    if (set) {
      const answer = () => html(res, set.body, set.status ?? 200, set.headers ?? {});
      if (set.delayMs) setTimeout(answer, set.delayMs);
      else answer();
      return;
    }
    if (url.pathname.startsWith("/slow/")) {
      slowInFlight += 1;
      slowMax = Math.max(slowMax, slowInFlight);
      setTimeout(() => {
        slowInFlight -= 1;
        html(res, page("slow", "ok"));
      }, 150);
      return;
    }
    const handler = routes[url.pathname];
    if (handler) return handler(req, res);
    if (url.pathname.startsWith("/asset/")) {
      const css = url.pathname.endsWith(".css");
      res.writeHead(200, {
        "Content-Type": css ? "text/css" : "image/png",
        "Cache-Control": "no-store",
        "Access-Control-Allow-Origin": "*",
      });
      return res.end(css ? "body{color:red}" : PIXEL);
    }
    if (url.pathname === "/asset-hits") {
      // Requests per /asset/ path so far, for a test running in another process (Playwright).
      const assets = [...hits].filter(([path]) => path.startsWith("/asset/"));
      res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      return res.end(JSON.stringify(Object.fromEntries(assets)));
    }
    if (url.pathname.startsWith("/hop/")) {
      const n = Number(url.pathname.slice(5));
      return n >= 6 ? html(res, page("Hop end", "ok")) : redirect(res, 301, `/hop/${n + 1}`);
    }
    if (url.pathname.startsWith("/p/")) return html(res, page(url.pathname, "ok"));
    status(res, 404);
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    port,
    allowEntry: `127.0.0.1:${port}`,
    url: (path) => `${origin}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    maxInFlightSlow: () => slowMax,
    headersOf: (path) => seenHeaders.get(path),
    setPage: (path, page) => void dynamic.set(path, page),
    removePage: (path) => void dynamic.delete(path),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function shopPage(port: number): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Fixture shop</title>
<style>body{font:16px/1.5 Georgia,serif;margin:2rem;max-width:40rem} nav a{margin-right:1rem}</style></head>
<body>
  <nav><a href="/shop/about">About us</a><a href="/shop/partner" rel="sponsored">Our partner</a></nav>
  <h1>Fixture shop</h1>
  <p>Read the <a href="/shop/missing">old buying guide</a>, or ask on
  <a href="http://localhost:${port}/shop/forum" rel="ugc nofollow">the forum</a>.</p>
  <p><a href="mailto:shop@example.com">Email us</a></p>
  <script>
    window.addEventListener("load", function () {
      setTimeout(function () {
        var p = document.createElement("p");
        var a = document.createElement("a");
        a.href = "/shop/added-by-script";
        a.textContent = "Added by script";
        p.appendChild(a);
        document.body.appendChild(p);
      }, 150);
    });
  </script>
</body>
</html>`;
}

function articlePage(): string {
  // Every link leads to a live page (/p/… answers 200), as most of a real article's links do.
  const nav = ["/", "/p/news", "/p/world", "/p/business", "/p/tech", "/p/science", "/p/sport", "/p/culture"]
    .map((href) => `<a href="${href}">${href.slice(3) || "home"}</a>`)
    .join("");
  const paragraphs: string[] = [];
  // 24 links in the text: a few repeat, one is a same-page fragment and one a mailto (ignored).
  for (let i = 0; i < 22; i += 1) {
    const rel = i % 7 === 3 ? ' rel="nofollow"' : i % 11 === 5 ? ' rel="sponsored"' : "";
    paragraphs.push(
      `<p>Paragraph ${i} of the story, with <a href="/p/story-${i % 20}"${rel}>a source ${i}</a> quoted at length so the page reads like a real one.</p>`,
    );
  }
  paragraphs.push(
    `<p>Jump <a href="#comments">to the comments</a> or <a href="mailto:desk@example.com">write to the desk</a>.</p>`,
  );
  const footer = ["/about", "/p/contact", "/p/privacy", "/p/terms", "/p/jobs", "/p/archive", "/p/1", "/p/2"]
    .map((href) => `<a href="${href}">${href.slice(1)}</a>`)
    .join(" · ");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Fixture article</title><link rel="stylesheet" href="/article/style.css"></head>
<body>
  <nav>${nav}</nav>
  <article><h1>A long story</h1>${paragraphs.join("\n")}
  <aside><h2>Related</h2><ul id="related"></ul></aside></article>
  <footer id="comments">${footer}</footer>
  <script>
    fetch("/article/related").then(function (r) { return r.json(); }).then(function (list) {
      var ul = document.getElementById("related");
      list.forEach(function (item) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = item.href;
        a.textContent = item.title;
        li.appendChild(a);
        ul.appendChild(li);
      });
    });
  </script>
</body>
</html>`;
}

function html(res: ServerResponse, body: string, code = 200, headers: Record<string, string> = {}): void {
  res.writeHead(code, { "content-type": "text/html; charset=utf-8", ...headers }).end(body);
}

function status(res: ServerResponse, code: number): void {
  res.writeHead(code, { "content-type": "text/plain" }).end(`status ${code}`);
}

function redirect(res: ServerResponse, code: number, location: string): void {
  res.writeHead(code, { location, "content-type": "text/plain" }).end(`see ${location}`);
}

function canaryPage(canary: string, canaryWs: string, byName: string): string {
  const j = (value: string) => JSON.stringify(value);
  return page(
    "Canary",
    `<a href="${canary}/link">canary link</a>
<a href="${byName}/link-by-name">canary by name</a>
<a href="${canary}/ping-target" ping="${canary}/ping">ping</a>
<img src="${canary}/img.png">
<img src="${byName}/img-by-name.png">
<picture><source srcset="${canary}/source.webp"><img src="${canary}/picture.png"></picture>
<video src="${canary}/video.mp4" autoplay muted></video>
<audio src="${canary}/audio.mp3" autoplay></audio>
<iframe src="${canary}/iframe"></iframe>
<iframe src="${byName}/iframe-by-name"></iframe>
<object data="${canary}/object"></object>
<embed src="${canary}/embed">
<form id="f" action="${canary}/form" method="post"><input name="x" value="1"></form>
<div style="background:url(${canary}/css-bg.png)">bg</div>
<script src="${canary}/script.js"></script>
<script type="module" src="${canary}/module.js"></script>
<script>
  const canary = ${j(canary)};
  fetch(canary + '/fetch').catch(() => {});
  fetch(${j(`${byName}/fetch-by-name`)}).catch(() => {});
  fetch(${j(`https://${new URL(canary).host}/fetch-https`)}).catch(() => {});
  fetch(canary + '/fetch-no-cors', { mode: 'no-cors' }).catch(() => {});
  const xhr = new XMLHttpRequest(); xhr.open('GET', canary + '/xhr'); xhr.send();
  try { new WebSocket(${j(`${canaryWs}/ws`)}); } catch (e) {}
  try { new WebSocket(${j(`wss://${new URL(canary).host}/wss`)}); } catch (e) {}
  try { new EventSource(canary + '/sse'); } catch (e) {}
  navigator.sendBeacon(canary + '/beacon', 'x');
  try { new Worker('/canary/worker.js'); } catch (e) {}
  try { new SharedWorker('/canary/worker.js'); } catch (e) {}
  try { navigator.serviceWorker.register('/canary/sw.js').catch(() => {}); } catch (e) {}
  const img = new Image(); img.src = canary + '/image-object.png';
  window.open(canary + '/popup');
  // Navigations wait for load: one started while parsing stops the parser, and we want the whole page.
  window.addEventListener('load', () => {
    setTimeout(() => { try { document.getElementById('f').submit(); } catch (e) {} }, 20);
    setTimeout(() => { location.href = canary + '/navigate'; }, 100);
  });
  try { const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.2:3478' }] }); pc.createDataChannel('x'); pc.createOffer().then(o => pc.setLocalDescription(o)); } catch (e) {}
</script>
<a href="/safe">a safe link</a>`,
    `<link rel="stylesheet" href="${canary}/style.css">
<link rel="prefetch" href="${canary}/prefetch">
<link rel="preload" as="script" href="${canary}/preload.js">
<link rel="preconnect" href="${canary}">
<link rel="dns-prefetch" href="${canary}">
<link rel="icon" href="${canary}/favicon.ico">
<link rel="manifest" href="${canary}/manifest.json">
<script type="speculationrules">{"prerender":[{"source":"list","urls":[${j(`${canary}/prerender`)}]}],"prefetch":[{"source":"list","urls":[${j(`${canary}/spec-prefetch`)}]}]}</script>
<meta http-equiv="refresh" content="1;url=${canary}/meta-refresh">
<style>@import url(${j(`${canary}/import.css`)}); @font-face { font-family: x; src: url(${j(`${canary}/font.woff2`)}); } body { font-family: x; }</style>`,
  );
}
