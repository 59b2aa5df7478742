import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Pages for what every render captures (google-view.md §1), a page per rule, for
 * tests/integration/url-mode/capture.test.ts, the production-build test and paste mode: content that loads
 * when it comes into view (an IntersectionObserver 3,200 px down, `loading="lazy"` iframes and images),
 * a scroll-event loader that must stay unseen, a page that takes its lazy link back when the viewport
 * shrinks, links inside shadow roots (open, closed, nested, declarative, slotted) and their order.
 *
 * Every link a rule is about has an href `/capture-link/<name>`; the exported orders list the names in
 * the order the analysis must give them (flattened-tree order).
 */

type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** The href of a named link of these pages. */
export function captureLink(name: string): string {
  return `/capture-link/${name}`;
}

function page(title: string, body: string, head = ""): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body style="margin:0">${body}</body></html>`;
}

function html(res: ServerResponse, body: string): void {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(body);
}

/** `add(name)` appends the link `/capture-link/<name>` to #box. */
const ADD = `<script>function add(name) { var a = document.createElement('a'); a.href = '/capture-link/' + name; a.textContent = name; document.getElementById('box').appendChild(a); }</script>`;

/** A block of `px` CSS pixels of height, to push what follows down the page. */
const spacer = (px: number) => `<div style="height:${px}px"></div>`;

/** An observer that adds `name` once #box comes into view. */
const observeBox = (name: string) =>
  `<script>new IntersectionObserver(function (entries, observer) { if (!entries.some(function (e) { return e.isIntersecting; })) return; observer.disconnect(); add(${JSON.stringify(name)}); }).observe(document.getElementById('box'));</script>`;

/**
 * Declarative shadow roots (no script at all: the same markup is pasted in paste mode): an open root with a
 * named slot, a default slot in a nav, a nested closed root whose slot shows its fallback, an empty slot's
 * fallback link; a host's child assigned to no slot, a plain template, and a template under an element that
 * cannot host a root are not rendered, so not captured.
 */
export const DECLARATIVE_BODY = `<a href="/capture-link/d-1">before</a>
<div id="card"><template shadowrootmode="open">
  <a href="/capture-link/d-2">open shadow</a>
  <slot name="title">title fallback</slot>
  <nav><slot></slot></nav>
  <x-inner><template shadowrootmode="closed"><a href="/capture-link/d-5">nested closed</a><slot name="inner"><a href="/capture-link/d-6">inner fallback</a></slot></template></x-inner>
  <slot name="empty"><a href="/capture-link/d-7">fallback link</a></slot>
</template>
  <a href="/capture-link/d-4">default slotted</a>
  <h2 slot="title"><a href="/capture-link/d-3">named slotted</a></h2>
  <a href="/capture-link/unassigned" slot="nowhere">assigned to no slot</a>
</div>
<template><a href="/capture-link/in-template">plain template</a></template>
<button><template shadowrootmode="open"><a href="/capture-link/not-a-host">not a host</a></template></button>
<a href="/capture-link/d-8">after</a>`;

/** DECLARATIVE_BODY's links, in flattened-tree order. */
export const DECLARATIVE_ORDER = ["d-1", "d-2", "d-3", "d-4", "d-5", "d-6", "d-7", "d-8"];

/**
 * Shadow roots a script attaches: an open one (its host's own child goes to no slot), a closed custom
 * element with a slotted link and an open root nested in it; a `<template shadowrootmode>` written by
 * script, in the document and in the closed root, is inert (only the parser makes shadow roots).
 */
const SCRIPTED_BODY = `<a href="/capture-link/s-1">before</a>
<div id="open-host"><a href="/capture-link/unassigned">assigned to no slot</a></div>
<x-closed id="closed-host"><a href="/capture-link/s-4" slot="s">slotted into a closed root</a></x-closed>
<a href="/capture-link/s-6">after</a>
<script>
  document.getElementById('open-host').attachShadow({ mode: 'open' }).innerHTML = '<a href="/capture-link/s-2">open</a>';
  customElements.define('x-closed', class extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'closed' });
      root.innerHTML = '<a href="/capture-link/s-3">closed</a><slot name="s"></slot><div id="nest"></div>' +
        '<div><template shadowrootmode="open"><a href="/capture-link/fake-in-closed">x</a></template></div>';
      root.getElementById('nest').attachShadow({ mode: 'open' }).innerHTML = '<a href="/capture-link/s-5">nested</a>';
    }
  });
  document.body.insertAdjacentHTML('beforeend', '<div><template shadowrootmode="open"><a href="/capture-link/fake">x</a></template></div>');
</script>`;

/** SCRIPTED_BODY's links, in flattened-tree order. */
export const SCRIPTED_ORDER = ["s-1", "s-2", "s-3", "s-4", "s-5", "s-6"];

/**
 * The hidden rule inside shadow trees (at 1280×800): a link its shadow tree's style hides, a shadow link of
 * a host that clips everything (height 0, overflow hidden), a slotted link whose slot is in a hidden
 * wrapper, the same in a closed root the parser attached, and visible links of each kind.
 */
const SHADOW_HIDDEN_BODY = `<main>
<div id="declared"><template shadowrootmode="closed"><style>.gone { display: none }</style><a class="gone" href="/capture-link/declared-hidden">gone</a><a href="/capture-link/declared-visible">shown</a></template></div>
<div id="styled"></div>
<div id="clipping" style="height:0;overflow:hidden"></div>
<x-slots id="slots"><a href="/capture-link/slotted-hidden" slot="hidden">in a hidden slot</a><a href="/capture-link/slotted-visible" slot="shown">in a shown slot</a></x-slots>
</main>
<script>
  var styled = document.getElementById('styled').attachShadow({ mode: 'closed' });
  styled.innerHTML = '<style>.gone { display: none }</style><a class="gone" href="/capture-link/styled-hidden">gone</a><a href="/capture-link/shadow-visible">shown</a>';
  document.getElementById('clipping').attachShadow({ mode: 'open' }).innerHTML = '<a href="/capture-link/clipped-hidden">clipped</a>';
  document.getElementById('slots').attachShadow({ mode: 'closed' }).innerHTML =
    '<div style="display:none"><slot name="hidden"></slot></div><p><slot name="shown"></slot></p>';
</script>`;

const a = (name: string, attributes = "") => `<a href="/capture-link/${name}"${attributes}>${name}</a>`;

/** One rule of the flattened tree: a page body and the names of its links in flattened order. */
export interface ShadowCase {
  rule: string;
  body: string;
  order: string[];
}

/**
 * The flattening rules, a row each (served as /capture/shadow/case/<index>): the worker's flattening of
 * pasted markup (tests/unit/analyzer/shadow-trees.test.ts) and Chromium's own rendering of the same markup
 * (tests/integration/url-mode/capture.test.ts) must both give `order`.
 */
export const SHADOW_CASES: readonly ShadowCase[] = [
  { rule: "no shadow root: document order", body: `${a("one")}<div>${a("two")}</div>`, order: ["one", "two"] },
  {
    rule: "an open root's content stands where its host is",
    body: `${a("before")}<div><template shadowrootmode="open">${a("shadow")}</template></div>${a("after")}`,
    order: ["before", "shadow", "after"],
  },
  {
    rule: "a closed root too, and the mode is ASCII case-insensitive",
    body: `<div><template shadowrootmode="CLOSED">${a("closed")}</template></div><span><template shadowrootmode="Open">${a("open")}</template></span>`,
    order: ["closed", "open"],
  },
  {
    rule: "slotted children stand where their slot is, not where they are in the host",
    body: `<div><template shadowrootmode="open"><slot name="first"></slot>${a("middle")}<slot></slot></template>${a("default")}<p slot="first">${a("named")}</p></div>`,
    order: ["named", "middle", "default"],
  },
  {
    rule: "the default slot takes every child without a slot attribute, in order",
    body: `<div><template shadowrootmode="open"><slot></slot></template>${a("one")}text${a("two")}</div>`,
    order: ["one", "two"],
  },
  {
    rule: "a slot shows its fallback content when nothing is assigned to it",
    body: `<div><template shadowrootmode="open"><slot name="empty">${a("fallback")}</slot></template></div>`,
    order: ["fallback"],
  },
  {
    rule: "but not when something is",
    body: `<div><template shadowrootmode="open"><slot>${a("fallback")}</slot></template>${a("assigned")}</div>`,
    order: ["assigned"],
  },
  {
    rule: "a child assigned to no slot is not rendered, so not captured",
    body: `<div><template shadowrootmode="open">${a("shadow")}<slot name="x"></slot></template>${a("no-slot-attribute")}${a("unknown-slot", ' slot="y"')}</div>`,
    order: ["shadow"],
  },
  {
    rule: "the first slot of a name takes the children; a second one shows its fallback",
    body: `<div><template shadowrootmode="open"><slot name="s"></slot><slot name="s">${a("second-fallback")}</slot></template>${a("slotted", ' slot="s"')}</div>`,
    order: ["slotted", "second-fallback"],
  },
  {
    rule: "nested roots, each in its own host's place",
    body: `<div><template shadowrootmode="open">${a("outer")}<section><template shadowrootmode="closed">${a("inner")}</template></section>${a("outer-after")}</template></div>`,
    order: ["outer", "inner", "outer-after"],
  },
  {
    rule: "a slot forwarded to a nested root's slot carries its children along",
    body: `<div><template shadowrootmode="open"><x-inner><template shadowrootmode="open">${a("inner")}<slot name="fwd"></slot></template><slot slot="fwd"></slot></x-inner></template>${a("light")}</div>`,
    order: ["inner", "light"],
  },
  {
    rule: "a forwarded slot the nested root does not show keeps its children unrendered",
    body: `<div><template shadowrootmode="open"><x-inner><template shadowrootmode="open">${a("inner")}</template><slot></slot></x-inner><slot></slot></template>${a("light")}</div>`,
    order: ["inner"],
  },
  {
    rule: "a host's child that is itself a host is flattened where it is slotted",
    body: `<div><template shadowrootmode="open"><slot></slot></template><span><template shadowrootmode="open">${a("grandchild")}</template></span></div>`,
    order: ["grandchild"],
  },
  {
    rule: "a root on <body> shows only what it slots (the parser attaches it to the body)",
    body: `${a("light")}<template shadowrootmode="open">${a("shadow")}</template>`,
    order: ["shadow"],
  },
  { rule: "inert: a plain template", body: `<template>${a("plain")}</template>${a("after")}`, order: ["after"] },
  {
    rule: "inert: a declarative template inside a plain one",
    body: `<template><div><template shadowrootmode="open">${a("deep")}</template></div></template>${a("after")}`,
    order: ["after"],
  },
  {
    rule: "inert: a mode that is neither open nor closed",
    body: `<div><template shadowrootmode="opened">${a("bad-mode")}</template></div>${a("after")}`,
    order: ["after"],
  },
  {
    rule: "inert: an empty mode",
    body: `<div><template shadowrootmode="">${a("empty-mode")}</template></div>${a("after")}`,
    order: ["after"],
  },
  {
    rule: "inert: an element that cannot host a root (button)",
    body: `<button><template shadowrootmode="open">${a("button")}</template></button>${a("after")}`,
    order: ["after"],
  },
  {
    rule: "inert: an SVG element",
    body: `<svg><g><template shadowrootmode="open">${a("svg")}</template></g></svg>${a("after")}`,
    order: ["after"],
  },
  {
    rule: "inert: a second declarative template on the same host",
    body: `<div><template shadowrootmode="open">${a("first")}</template><template shadowrootmode="open">${a("second")}</template></div>${a("after")}`,
    order: ["first", "after"],
  },
];

export function capturePageRoutes(): Record<string, Route> {
  return {
    ...Object.fromEntries(
      SHADOW_CASES.map((rule, index) => [
        `/capture/shadow/case/${index}`,
        (_req: IncomingMessage, res: ServerResponse) => html(res, page(`Shadow case ${index}`, rule.body)),
      ]),
    ),
    // A "related posts" box 3,200 px down that fills itself when it comes into view: one link rendered in
    // a task scheduled by the observer's callback (as frameworks do), one from a fetch it starts.
    "/capture/lazy/observer": (_req, res) =>
      html(
        res,
        page(
          "Observer",
          `${ADD}<a href="/capture-link/top">top</a>${spacer(3_200)}<section id="box"></section>${spacer(400)}
<script>
  var channel = new MessageChannel();
  channel.port1.onmessage = function () { add('observer-scheduled'); };
  new IntersectionObserver(function (entries, observer) {
    if (!entries.some(function (e) { return e.isIntersecting; })) return;
    observer.disconnect();
    channel.port2.postMessage(null);
    fetch('/capture/api/related').then(function (r) { return r.json(); }).then(function (list) { list.forEach(add); });
  }).observe(document.getElementById('box'));
</script>`,
        ),
      ),
    "/capture/api/related": (_req, res) => {
      setTimeout(
        () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(["observer-fetched"])),
        100,
      );
    },

    // loading="lazy": an iframe 8,000 px down whose document adds a link to its parent, and an image whose
    // load (or, since the renderer skips images, error) event reveals a link.
    "/capture/lazy/loading-attribute": (_req, res) =>
      html(
        res,
        page(
          "Lazy attribute",
          `${ADD}<a href="/capture-link/top">top</a><div id="box"></div>${spacer(8_000)}
<iframe loading="lazy" src="/capture/lazy/frame" style="height:100px"></iframe>
<img loading="lazy" src="/asset/lazy.png" width="10" height="10" onload="add('lazy-image')" onerror="add('lazy-image')">`,
        ),
      ),
    "/capture/lazy/frame": (_req, res) => html(res, page("Frame", `<script>parent.add('lazy-iframe');</script>`)),

    // A loader that adds its link on the first scroll event (Google never scrolls), beside an observer
    // control that shows the page was grown.
    "/capture/lazy/scroll-loader": (_req, res) =>
      html(
        res,
        page(
          "Scroll loader",
          `${ADD}<a href="/capture-link/top">top</a>${spacer(5_000)}<div id="box"></div>${spacer(200)}
<script>
  window.addEventListener('scroll', function () { add('scroll-loaded'); }, { once: true });
  document.addEventListener('scroll', function () { add('scroll-loaded-document'); }, { once: true });
</script>${observeBox("observer-control")}`,
        ),
      ),

    // A page that takes its lazy link back when the box leaves the view, and removes a link when the viewport
    // is short: restoring the viewport after the capture must not change what was captured.
    "/capture/lazy/takes-back": (_req, res) =>
      html(
        res,
        page(
          "Takes back",
          `${ADD}<a href="/capture-link/top">top</a><a class="tall-only" href="/capture-link/tall-only">tall only</a>${spacer(3_200)}<div id="box"></div>${spacer(200)}
<script>
  new IntersectionObserver(function (entries) {
    entries.forEach(function (e) { if (e.isIntersecting) add('virtualized'); else document.getElementById('box').replaceChildren(); });
  }).observe(document.getElementById('box'));
  window.addEventListener('resize', function () {
    if (window.innerHeight < 1000) document.querySelectorAll('.tall-only').forEach(function (a) { a.remove(); });
  });
</script>`,
        ),
      ),

    // The hidden rule keeps 1280×800: a link hidden only on short screens, and a lazy link visible there.
    "/capture/lazy/hidden-rule": (_req, res) =>
      html(
        res,
        page(
          "Hidden rule",
          `${ADD}<a class="short-screen-hidden" href="/capture-link/short-screen-hidden">short screens hide me</a>${spacer(3_200)}<div id="box"></div>${spacer(200)}${observeBox("lazy-visible")}`,
          `<style>@media (max-height: 900px) { .short-screen-hidden { display: none } }</style>`,
        ),
      ),

    // Nothing lazy: a tall page without scripts, and a page no taller than the viewport.
    "/capture/tall-static": (_req, res) =>
      html(res, page("Tall", `<a href="/capture-link/top">top</a>${spacer(4_000)}<a href="/capture-link/end">end</a>`)),
    "/capture/short": (_req, res) => html(res, page("Short", `<a href="/capture-link/only">only</a>`)),

    "/capture/shadow/declarative": (_req, res) => html(res, page("Declarative", DECLARATIVE_BODY)),
    "/capture/shadow/scripted": (_req, res) => html(res, page("Scripted", SCRIPTED_BODY)),
    "/capture/shadow/hidden": (_req, res) => html(res, page("Shadow hidden", SHADOW_HIDDEN_BODY)),
  };
}
