import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import createDOMPurify, { type Config } from "dompurify";
import { describe, expect, it } from "vitest";
import { extractLinks } from "@/lib/analyzer/links/extract";
import { inertWindow, parseHtml } from "@/lib/analyzer/document/parse";
import { pruneTree } from "@/lib/analyzer/document/prune";
import { purifyWindow } from "@/lib/analyzer/document/purify-window";
import { SNAPSHOT_CONFIG } from "@/lib/analyzer/document/sanitize";

/**
 * lib/analyzer/document/purify-window.ts hands DOMPurify a view of jsdom's window whose Element reads
 * childNodes as an array. The view is only worth having if DOMPurify then does exactly what it does with
 * the plain window: each case sanitizes two parses of the same markup, one per window, and compares the
 * trees.
 */
type Purifier = ReturnType<typeof createDOMPurify>;
const stock: Purifier = createDOMPurify(inertWindow as unknown as Parameters<typeof createDOMPurify>[0]);
const viewed: Purifier = createDOMPurify(purifyWindow(inertWindow) as unknown as Parameters<typeof createDOMPurify>[0]);

const FIXTURES = path.resolve(__dirname, "../../fixtures");
const CORPUS = path.join(FIXTURES, "corpus", "pages");

const HOSTILE: Record<string, string> = {
  "script and handlers": `<script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a>`,
  "a form unwrapped by KEEP_CONTENT": `<form action=/go><p><a href=/inside>inside</a></p><button>go</button></form>`,
  "a form that clobbers its DOM properties": `<form><input name=childNodes><input name=attributes><input name=nodeName><a href=/x>x</a></form>`,
  "nested forms and tables": `<table><form><tr><td><a href=/t>t</a></td></tr></form></table><form id=a><form id=b><a href=/f>f</a></form></form>`,
  "svg and math namespace confusion": `<svg></p><style><a id="</style><img src=1 onerror=alert(1)>"><math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
  "noscript and templates": `<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript><template><a href=/t>t</a></template>`,
  "comments with markup and processing instructions": `<!-- <img src=x onerror=alert(1)> --><?xml-stylesheet href="x"?><a href=/c>c</a>`,
  "patch linkage attributes": `<div patchsrc=/x><label for=a>a</label><output for=b></output><span for=c>c</span></div>`,
  "unknown tags and custom elements kept by content": `<x-card><blink><a href=/k>k</a></blink></x-card><center><font color=red>f</font></center>`,
  "clobbering ids and names": `<img name=getElementById><img id=body><a id=attributes name=nodeName href=/n>n</a>`,
  "deep nesting": `${"<div>".repeat(500)}<a href=/deep>deep</a>${"</div>".repeat(500)}`,
};

function corpusPages(): Record<string, string> {
  const pages: Record<string, string> = {};
  for (const name of readdirSync(CORPUS)
    .filter((file) => file.endsWith(".html"))
    .sort()) {
    pages[`corpus ${name}`] = readFileSync(path.join(CORPUS, name), "utf8");
  }
  for (const entry of readdirSync(FIXTURES, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === "corpus") continue;
    pages[`golden ${entry.name}`] = readFileSync(path.join(FIXTURES, entry.name, "input.html"), "utf8");
  }
  return pages;
}

/** Sanitizes a fresh parse of `html` in place, optionally after the pipeline's own pre-pass. */
function sanitized(purifier: Purifier, html: string, config: Config, prePass: boolean): string {
  const document = parseHtml(html);
  if (prePass) pruneTree(document, extractLinks(document, false).fates);
  purifier.sanitize(document.documentElement, { ...config, IN_PLACE: true });
  return document.documentElement.outerHTML;
}

const SIMPLE: Config = { WHOLE_DOCUMENT: true, KEEP_CONTENT: true };

describe("DOMPurify through purify-window's view of jsdom", () => {
  it("sees every child of an element, in order, as an array", () => {
    const document = parseHtml("<p>a<b>b</b><!--c--><i>d</i></p>");
    const paragraph = document.querySelector("p") as Element;
    const view = purifyWindow(inertWindow);
    expect(Object.getPrototypeOf(view.Element.prototype)).toBe(inertWindow.Element.prototype);
    const read = Object.getOwnPropertyDescriptor(view.Element.prototype, "childNodes")?.get;
    expect(read).toBeTypeOf("function");
    const children = read?.call(paragraph) as Node[];
    expect(Array.isArray(children)).toBe(true);
    expect(children).toEqual([...paragraph.childNodes]);
  });

  it("gives a form jsdom's own list, so DOMPurify's clobbering check does not discard every form", () => {
    const html = `<form><a href=/inside>inside</a></form>`;
    const out = sanitized(viewed, html, SIMPLE, false);
    expect(out).toContain(`<a href="/inside">inside</a>`);
    expect(out).toBe(sanitized(stock, html, SIMPLE, false));
  });

  const cases = Object.entries({ ...HOSTILE, ...corpusPages() });

  it("has the hostile cases, the vendored corpus sample and the golden fixtures", () => {
    expect(cases.length).toBeGreaterThanOrEqual(Object.keys(HOSTILE).length + 11 + 20);
  });

  it.each(cases)("answers as the plain window does: %s", (_name, html) => {
    for (const config of [SNAPSHOT_CONFIG, SIMPLE]) {
      for (const prePass of [true, false]) {
        expect(sanitized(viewed, html, config, prePass)).toBe(sanitized(stock, html, config, prePass));
      }
    }
  });
});
