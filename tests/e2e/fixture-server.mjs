// A tiny site for the URL-mode e2e flow, on 127.0.0.1:FIXTURE_PORT (allowed by the app through
// ALLOW_PRIVATE_HOSTS). "/" has a few links of each kind, one added by a script after load, and
// one pointing to a 404. Started by Playwright's webServer list (see playwright.config.ts).
import http from "node:http";

const port = Number(process.env.FIXTURE_PORT ?? 4517);

const HOME = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Fixture shop</title>
<style>body{font:16px/1.5 Georgia,serif;margin:2rem;max-width:40rem} nav a{margin-right:1rem}</style></head>
<body>
  <nav><a href="/about">About us</a><a href="/partner" rel="sponsored">Our partner</a></nav>
  <h1>Fixture shop</h1>
  <p>Read the <a href="/missing">old buying guide</a>, or ask on
  <a href="http://localhost:${port}/forum" rel="ugc nofollow">the forum</a>.</p>
  <p><a href="mailto:shop@example.com">Email us</a></p>
  <script>
    window.addEventListener("load", function () {
      setTimeout(function () {
        var p = document.createElement("p");
        var a = document.createElement("a");
        a.href = "/added-by-script";
        a.textContent = "Added by script";
        p.appendChild(a);
        document.body.appendChild(p);
      }, 150);
    });
  </script>
</body>
</html>`;

const simple = (title) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><a href="/">Home</a></body></html>`;

// A 1×1 transparent PNG, and a count of requests per path under /asset/ (the snapshot test asks
// /asset-hits how many requests the visitor's browser sent for the analysed page's resources).
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const assetHits = new Map();

const server = http.createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://fixture").pathname;
  if (path.startsWith("/asset/")) {
    assetHits.set(path, (assetHits.get(path) ?? 0) + 1);
    const css = path.endsWith(".css");
    res.writeHead(200, { "Content-Type": css ? "text/css" : "image/png", "Cache-Control": "no-store", "Access-Control-Allow-Origin": "*" });
    return res.end(css ? "body{color:red}" : PIXEL);
  }
  if (path === "/asset-hits") {
    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    return res.end(JSON.stringify(Object.fromEntries(assetHits)));
  }
  const send = (status, body) => {
    res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : body);
  };
  if (path === "/") return send(200, HOME);
  if (path === "/health") return send(200, "ok");
  if (path === "/about" || path === "/partner" || path === "/added-by-script") return send(200, simple(path.slice(1)));
  return send(404, simple("Not found"));
});

server.listen(port, "127.0.0.1", () => console.log(`fixture site on http://127.0.0.1:${port}/`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
