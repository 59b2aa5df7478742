import { describe, expect, it } from "vitest";
import { parseHtml } from "@/lib/analyzer/document/parse";
import { flattenShadowTrees, mayHaveShadowRoots } from "@/lib/analyzer/document/shadow-trees";
import { rawLinkHrefs } from "@/lib/analyzer/links/raw-links";
import { analyzeDocument } from "@/lib/analyzer/pipeline";
import { DECLARATIVE_BODY, DECLARATIVE_ORDER, SHADOW_CASES } from "@/scripts/lib/capture-pages";

/**
 * Declarative shadow roots and the flattened tree, worker side (lib/analyzer/document/shadow-trees.ts;
 * google-view.md §1): what a browser's parser attaches, and the order links take once slots are filled.
 * Each rule (scripts/lib/capture-pages.ts SHADOW_CASES, also rendered by Chromium in
 * tests/integration/url-mode/capture.test.ts) names its links by their hrefs; the list is their order.
 */

const PAGE_URL = "https://example.com/";

function order(body: string, scripting = false): string[] {
  const html = `<!doctype html><html><head></head><body>${body}</body></html>`;
  return analyzeDocument({ html, pageUrl: PAGE_URL, scripting }).links.map((link) =>
    new URL(link.href).pathname.replace(/^\/(capture-link\/)?/, ""),
  );
}

const a = (name: string) => `<a href="/${name}">${name}</a>`;

describe("flattened order", () => {
  it.each(SHADOW_CASES.map((rule) => [rule.rule, rule] as const))("%s", (_rule, { body, order: expected }) => {
    expect(order(body)).toEqual(expected);
  });
});

describe("the snapshot shows shadow content in place", () => {
  it("every link of the list is in sanitizedHtml with its position, and nothing of the templates is left", () => {
    const html = `<!doctype html><html><head></head><body>${DECLARATIVE_BODY}</body></html>`;
    const result = analyzeDocument({ html, pageUrl: PAGE_URL, scripting: false });
    for (const link of result.links)
      expect(result.sanitizedHtml).toContain(
        `<a href="${new URL(link.href).pathname}" data-linklens-position="${link.position}">`,
      );
    expect(result.sanitizedHtml).not.toMatch(/<template|<slot|shadowrootmode|unassigned|in-template|not-a-host/);
  });

  it("a shadow tree's style is dropped: it styled only its own tree", () => {
    const html = `<div><template shadowrootmode="open"><style>a { display: none }</style>${a("x")}</template></div><style>p { color: red }</style>`;
    const result = analyzeDocument({ html, pageUrl: PAGE_URL, scripting: false });
    expect(result.sanitizedHtml).not.toContain("display: none");
    expect(result.sanitizedHtml).toContain("p { color: red }");
  });
});

describe("paste mode and the raw HTML read declarative roots", () => {
  const page = `<!doctype html><html><head></head><body>${DECLARATIVE_BODY}</body></html>`;
  const expected = DECLARATIVE_ORDER.map((name) => `https://example.com/capture-link/${name}`);

  it("paste mode: the fixture page's links in flattened order", () => {
    expect(analyzeDocument({ html: page, pageUrl: PAGE_URL, scripting: false }).links.map((link) => link.href)).toEqual(
      expected,
    );
  });

  it("the raw HTML (inRawHtml): the same links, in the same order", () => {
    expect(rawLinkHrefs(page, PAGE_URL)).toEqual(expected);
  });
});

describe("the cheap test before any tree is searched", () => {
  it.each([
    ['<template shadowrootmode="open">', true],
    ["<TEMPLATE SHADOWROOTMODE=closed>", true],
    ["<template>", false],
    ["<div shadowroot>", false],
    ["<SLOT name=x>", true],
  ])("%s → %s", (markup, expected) => {
    expect(mayHaveShadowRoots(markup)).toBe(expected);
  });

  it("a document without declarative roots or slots is left as it was", () => {
    const document = parseHtml(`<div><template>${a("x")}</template><p>${a("y")}</p></div>`);
    const before = document.documentElement.outerHTML;
    expect(flattenShadowTrees(document)).toBe(0);
    expect(document.documentElement.outerHTML).toBe(before);
  });

  it("a slot outside any shadow tree shows its children: it is unwrapped, an inert template stays", () => {
    const document = parseHtml(`<div><template>${a("x")}</template><slot name="n">${a("y")}</slot></div>`);
    expect(flattenShadowTrees(document)).toBe(0);
    expect(document.body.innerHTML).toBe(`<div><template>${a("x")}</template>${a("y")}</div>`);
  });
});
