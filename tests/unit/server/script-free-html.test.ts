import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptStripper, stripScriptsFromHtml } from "@/server/script-free-html";

/**
 * Client report pages go out without Next's scripts and script preloads (their CSP says script-src
 * 'none'): every script element and script preload is removed, everything else is kept byte for byte,
 * wherever the chunks are cut.
 */

const PAGE = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>',
  '<link rel="preload" as="script" fetchPriority="low" href="/_next/static/chunks/b.js"/>',
  '<link rel="modulepreload" href="/_next/static/chunks/m.js">',
  '<script src="/_next/static/chunks/c.js" async=""></script>',
  "<title>Acme — Olivia&#x27;s team</title>",
  '<link rel="icon" href="data:image/svg+xml,%3Csvg%3E"/>',
  '<SCRIPT src="/_next/static/chunks/n.js" noModule=""></SCRIPT >',
  "</head><body><p>Links &lt;script&gt; and &lt;link&gt; are text · ünïcödé ✓</p>",
  '<svg role="img"><title>Nov 27, 2026: live</title><rect width="4" height="4"/></svg>',
  '<script id="_R_">(globalThis["TURBOPACK"] || []).push({"a":"<\\/script>"});</script>',
  '<script>self.__next_f.push([1,"0:{\\"k\\":\\"FlcKL40cSKoazDfI2LBldV2zsJ7deRdl\\"}\\n\\u003c/script"])</script>',
  "</body></html>",
].join("");

const EXPECTED = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>',
  '<link rel="stylesheet" href="/_next/static/chunks/a.css" data-precedence="next"/>',
  "<title>Acme — Olivia&#x27;s team</title>",
  '<link rel="icon" href="data:image/svg+xml,%3Csvg%3E"/>',
  "</head><body><p>Links &lt;script&gt; and &lt;link&gt; are text · ünïcödé ✓</p>",
  '<svg role="img"><title>Nov 27, 2026: live</title><rect width="4" height="4"/></svg>',
  "</body></html>",
].join("");

function strip(chunks: string[]): string {
  const stripper = new ScriptStripper();
  return chunks.map((chunk) => stripper.push(chunk)).join("") + stripper.end();
}

describe("ScriptStripper", () => {
  it("removes every script and script preload and keeps the rest as it was", () => {
    expect(strip([PAGE])).toBe(EXPECTED);
  });

  it("gives the same answer wherever the stream is cut in two, or cut into single characters", () => {
    for (let cut = 0; cut <= PAGE.length; cut += 1)
      expect(strip([PAGE.slice(0, cut), PAGE.slice(cut)]), `cut at ${cut}`).toBe(EXPECTED);
    expect(strip([...PAGE])).toBe(EXPECTED);
  });

  it("a document without scripts is unchanged; an unfinished tag at the end is written as it came", () => {
    const plain = "<!doctype html><p>x < y and <li>z</li><link rel=stylesheet href=/a.css>";
    expect(strip([plain])).toBe(plain);
    expect(strip(["<p>a</p><lin"])).toBe("<p>a</p><lin");
    expect(strip(["<p>a</p><script>never closed"])).toBe("<p>a</p>");
  });
});

describe("stripScriptsFromHtml", () => {
  let server: http.Server;
  let base = "";
  const CSV = "a,b\r\n<script>1</script>,2\r\n";

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      stripScriptsFromHtml(res);
      if (req.url === "/csv") {
        res.setHeader("Content-Type", "text/csv; charset=utf-8");
        res.end(CSV);
        return;
      }
      if (req.url === "/write-head") {
        // Headers given to writeHead itself, Content-Length among them (a prerendered page).
        res.writeHead(404, {
          "Content-Type": "text/html; charset=utf-8",
          "Content-Length": String(Buffer.byteLength(PAGE)),
        });
        res.end(PAGE);
        return;
      }
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Content-Length", String(Buffer.byteLength(PAGE)));
      // Headers sent before the first byte (as a streamed render does).
      if (req.url === "/flushed") res.flushHeaders();
      // Byte chunks that cut a UTF-8 character and a tag in two.
      const bytes = Buffer.from(PAGE);
      const cut = bytes.indexOf(Buffer.from("ü")) + 1;
      res.write(bytes.subarray(0, cut));
      res.write(bytes.subarray(cut, cut + 40), () => undefined);
      res.end(bytes.subarray(cut + 40));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("filters an HTML answer written in byte chunks, and drops a Content-Length that no longer holds", async () => {
    const response = await fetch(`${base}/page`);
    expect(response.headers.get("content-length")).toBeNull();
    expect(await response.text()).toBe(EXPECTED);
  });

  it.each(["/flushed", "/write-head"])("%s: the length goes whenever the headers go out", async (path) => {
    const response = await fetch(`${base}${path}`);
    expect(response.headers.get("content-length")).toBeNull();
    expect(await response.text()).toBe(EXPECTED);
  });

  it("leaves other answers untouched", async () => {
    expect(await (await fetch(`${base}/csv`)).text()).toBe(CSV);
  });
});
