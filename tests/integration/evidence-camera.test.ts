import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  inspectUrl,
  printPdf,
  shutdownAnalyzer,
  type AnalyzerSettings,
  type EvidenceShot,
  type PageReport,
} from "@/lib/analyzer";
import { parseConfig } from "@/lib/config";
import { startFixtureSite, type FixtureSite } from "@/scripts/lib/fixture-site";
import { pdfInfo, pdfText } from "../helpers/pdf-text";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The evidence camera and printer at the analyzer's front door (`npm run build` first: the worker pool),
 * in a real Chromium against pages of the local fixture site: a screenshot of the rendered page kept open
 * after the analysis, scrolled to the link with an outline drawn around it (the box checked in the PNG's
 * own pixels), the top of the page for a hidden link, pages taller than the cap, a fixed header, a
 * carousel, a page that never stops painting; and a PDF printed by the same browser.
 */

let site: FixtureSite;
let settings: AnalyzerSettings;
const TARGET = "https://placement.example/landing";

beforeAll(async () => {
  site = await startFixtureSite();
  settings = parseConfig({
    ALLOW_PRIVATE_HOSTS: site.allowEntry,
    PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
    LINK_CHECK_TIMEOUT_MS: "1000",
  });
});
afterAll(async () => {
  await shutdownAnalyzer();
  await site?.close();
});

const page = (body: string, head = "") =>
  `<!doctype html><html><head><meta charset="utf-8"><title>Camera</title>${head}</head><body style="margin:0;font:16px sans-serif">${body}</body></html>`;

async function render(path: string, body: string, head = ""): Promise<PageReport> {
  site.setPage(path, { body: page(body, head) });
  return inspectUrl(new URL(site.url(path)), { settings, signals: true, evidence: true, checkLinks: () => false });
}

function positionOf(report: PageReport, href: string): number {
  const link = report.analysis.links.find((item) => item.href === href);
  expect(link, href).toBeDefined();
  return link?.position ?? 0;
}

async function shootAndRelease(report: PageReport, position: number | null): Promise<EvidenceShot> {
  expect(report.camera).not.toBeNull();
  try {
    const shot = await report.camera?.shoot(position);
    expect(shot).toBeTruthy();
    return shot as EvidenceShot;
  } finally {
    await report.camera?.release();
  }
}

function decode(shot: EvidenceShot): PNG {
  expect(shot.png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  const png = PNG.sync.read(shot.png);
  expect([png.width, png.height]).toEqual([shot.width, shot.height]);
  return png;
}

function pixel(png: PNG, x: number, y: number): [number, number, number] {
  const at = (png.width * y + x) * 4;
  return [png.data[at] ?? 0, png.data[at + 1] ?? 0, png.data[at + 2] ?? 0];
}

const isRed = ([r, g, b]: [number, number, number]) => r > 180 && g < 90 && b < 90;

/** The outline is drawn 3 px outside the link's box: its left edge, half-way down, is red. */
function expectOutlined(png: PNG, box: { x: number; y: number; width: number; height: number }) {
  const y = Math.round(box.y + box.height / 2);
  const x = Math.max(0, box.x - 2);
  expect(isRed(pixel(png, x, y)), `pixel (${x}, ${y}) is ${pixel(png, x, y).join(",")}`).toBe(true);
}

describe("the evidence camera", () => {
  it("scrolls a link far down a page taller than the cap into view and outlines it", async () => {
    const report = await render(
      "/camera/tall",
      `<div style="height:20000px;background:#f1f5f9">tall</div><p style="padding:20px"><a href="${TARGET}" style="display:inline-block;width:240px;height:40px;background:#1d4ed8;color:#fff">Our link</a></p><div style="height:3000px"></div>`,
    );
    const shot = await shootAndRelease(report, positionOf(report, TARGET));
    const png = decode(shot);
    expect(shot.width).toBe(1280);
    expect(shot.height).toBeLessThanOrEqual(4096);
    expect(shot.png.length).toBeLessThanOrEqual(2 * 1024 * 1024);
    const box = shot.linkBox;
    expect(box).not.toBeNull();
    if (!box) return;
    expect(box.width).toBe(240);
    expect(box.height).toBe(40);
    expect(box.y).toBeGreaterThan(0);
    expect(box.y + box.height).toBeLessThanOrEqual(shot.height);
    // Inside the box: the link's own blue background, so the box is where the link is.
    const [r, g, b] = pixel(png, box.x + 120, box.y + 20);
    expect(b).toBeGreaterThan(150);
    expect(r).toBeLessThan(120);
    expect(g).toBeLessThan(140);
    expectOutlined(png, box);
  });

  it("finds a link inside a fixed header wherever the page is scrolled", async () => {
    const report = await render(
      "/camera/fixed-header",
      `<header style="position:fixed;top:0;left:0;right:0;height:60px;background:#fff;z-index:10"><a href="${TARGET}" style="position:absolute;left:900px;top:10px;display:block;width:200px;height:40px;background:#1d4ed8">Sponsor</a></header><div style="height:6000px;padding-top:80px">body text</div>`,
    );
    const shot = await shootAndRelease(report, positionOf(report, TARGET));
    const png = decode(shot);
    expect(shot.linkBox).toEqual({ x: 900, y: 10, width: 200, height: 40 });
    expectOutlined(png, { x: 900, y: 10, width: 200, height: 40 });
  });

  it("brings a link out of a carousel's hidden slide into view", async () => {
    const slides = [1, 2, 3, 4]
      .map(
        (n) =>
          `<div style="flex:0 0 1000px;height:200px;background:#e2e8f0">${n === 4 ? `<a href="${TARGET}" style="display:inline-block;margin:20px;width:300px;height:50px;background:#1d4ed8">slide 4</a>` : `slide ${n}`}</div>`,
      )
      .join("");
    const report = await render(
      "/camera/carousel",
      `<div style="margin:100px 0 0 40px;width:1000px;overflow:hidden;display:flex">${slides}</div>`,
    );
    expect(report.linkSignals[positionOf(report, TARGET) - 1]?.hidden).toBe(false);
    const shot = await shootAndRelease(report, positionOf(report, TARGET));
    const box = shot.linkBox;
    expect(box).not.toBeNull();
    expect(box?.width).toBe(300);
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 1280).toBe(true);
    expectOutlined(decode(shot), box ?? { x: 0, y: 0, width: 0, height: 0 });
  });

  it("photographs a page whose viewport grew for its lazy content at 1280×800, its lazy link framed", async () => {
    const report = await render(
      "/camera/lazy",
      `<div style="height:3200px;background:#f1f5f9">tall</div><div id="box" style="height:60px;padding-left:40px"></div><div style="height:2000px"></div>`,
      `<script>addEventListener("DOMContentLoaded", () => new IntersectionObserver((entries, observer) => { if (!entries[0].isIntersecting) return; observer.disconnect(); const a = document.createElement("a"); a.href = ${JSON.stringify(TARGET)}; a.textContent = "lazy"; a.style.cssText = "display:inline-block;width:200px;height:40px;background:#1d4ed8"; document.getElementById("box").append(a); }).observe(document.getElementById("box")))</script>`,
    );
    const shot = await shootAndRelease(report, positionOf(report, TARGET));
    const png = decode(shot);
    expect([shot.width, shot.height]).toEqual([1280, 800]);
    expect(shot.linkBox).toMatchObject({ width: 200, height: 40 });
    expectOutlined(png, shot.linkBox ?? { x: 0, y: 0, width: 0, height: 0 });
  });

  it("frames links inside shadow roots, closed ones included, counted in flattened order", async () => {
    const other = "https://placement.example/other";
    const report = await render(
      "/camera/shadow",
      `<a href="${TARGET}">light, first in the document</a><x-card id="card"><a slot="s" href="${other}" style="display:inline-block;width:120px;height:30px;background:#1d4ed8">slotted</a></x-card>`,
      `<script>addEventListener("DOMContentLoaded", () => { const root = document.getElementById("card").attachShadow({ mode: "closed" }); root.innerHTML = '<div style="height:2500px"></div><a href="${TARGET}" style="display:inline-block;margin-left:40px;width:260px;height:44px;background:#1d4ed8">in a closed root</a><p><slot name="s"></slot></p>'; })</script>`,
    );
    const positions = report.analysis.links.filter((link) => link.href === TARGET).map((link) => link.position);
    expect(positions).toHaveLength(2);
    // The second link to TARGET is the one inside the closed root, 2,500 px down.
    const inShadow = await report.camera?.shoot(positions[1] ?? 0);
    const slotted = await report.camera?.shoot(positionOf(report, other));
    await report.camera?.release();
    expect(inShadow?.linkBox).toMatchObject({ width: 260, height: 44 });
    expect(slotted?.linkBox).toMatchObject({ width: 120, height: 30 });
    expectOutlined(decode(inShadow as EvidenceShot), inShadow?.linkBox ?? { x: 0, y: 0, width: 0, height: 0 });
  });

  it("photographs the top of the page, with no box, when asked for no link", async () => {
    const report = await render(
      "/camera/hidden",
      `<h1 style="margin:0;height:120px;background:#dc2626">Top</h1><div style="height:3000px"></div><a href="${TARGET}" style="display:none">gone</a>`,
    );
    expect(report.linkSignals[positionOf(report, TARGET) - 1]?.hidden).toBe(true);
    const shot = await shootAndRelease(report, null);
    const png = decode(shot);
    expect(shot.linkBox).toBeNull();
    expect(shot.height).toBe(800);
    // The page's own red heading is at the very top: the shot starts at the top of the page.
    expect(isRed(pixel(png, 640, 40))).toBe(true);
  });

  it("takes several shots of one page in turn, and none once released", async () => {
    const report = await render(
      "/camera/two",
      `<a href="${TARGET}" style="display:block;height:30px">first</a><div style="height:5000px"></div><a href="${TARGET}" style="display:block;height:30px;width:100px">second</a>`,
    );
    const [first, second] = report.analysis.links.filter((link) => link.href === TARGET).map((link) => link.position);
    const one = await report.camera?.shoot(first ?? 0);
    const two = await report.camera?.shoot(second ?? 0);
    await report.camera?.release();
    expect(one?.linkBox?.width).toBe(1280);
    expect(two?.linkBox?.width).toBe(100);
    expect(await report.camera?.shoot(first ?? 0)).toBeNull();
  });

  it("photographs a page that never stops painting", async () => {
    const report = await render(
      "/camera/animated",
      `<div id="spin" style="width:100px;height:100px;background:#16a34a;animation:spin 0.2s linear infinite"></div><canvas id="c" width="300" height="100"></canvas><a href="${TARGET}">link</a>`,
      `<style>@keyframes spin{to{transform:rotate(360deg)}}</style><script>addEventListener("load",()=>{const c=document.getElementById("c").getContext("2d");let i=0;(function frame(){c.fillStyle="hsl("+(i++%360)+",80%,50%)";c.fillRect(0,0,300,100);requestAnimationFrame(frame)})()})</script>`,
    );
    const shot = await shootAndRelease(report, positionOf(report, TARGET));
    decode(shot);
    expect(shot.linkBox).not.toBeNull();
  });

  it("keeps the page without its network: nothing it asks for after the render reaches anything, even thawed for a shot", async () => {
    site.setPage("/camera/ping", { body: "pong" });
    // A ticker (over 250 ms: the render does not wait for it) that calls home as long as the page lives.
    const report = await render(
      "/camera/pinging",
      `<a href="${TARGET}">link</a><script>const ping = () => fetch("/camera/ping?" + Date.now()).catch(() => {}); ping(); setInterval(ping, 300)</script>`,
    );
    const after = site.hits("/camera/ping");
    // The ping reaches the site while the page renders: what follows is not a page that never pings.
    expect(after).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 900));
    const shot = await shootAndRelease(report, positionOf(report, TARGET));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(shot.linkBox).not.toBeNull();
    expect(site.hits("/camera/ping")).toBe(after);
  });

  it("keeps no page open unless asked: a render without evidence has no camera", async () => {
    site.setPage("/camera/plain", { body: page(`<a href="${TARGET}">x</a>`) });
    const report = await inspectUrl(new URL(site.url("/camera/plain")), {
      settings,
      signals: true,
      checkLinks: () => false,
    });
    expect(report.camera).toBeNull();
  });
});

describe("printing", () => {
  it("prints our own HTML to a one-page PDF with its text, loading nothing from the network", async () => {
    const before = site.hits("/camera/never-loaded.png");
    const html = `<!doctype html><html><body><h1>Evidence report</h1><p>https://blog.example/post</p><p>${"a".repeat(64)}</p><img src="${site.url("/camera/never-loaded.png")}"><script>document.body.append("scripted")</script></body></html>`;
    const pdf = await printPdf(html, { settings });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = pdfText(pdf);
    expect(text).toContain("Evidence report");
    expect(text).toContain("https://blog.example/post");
    expect(text).toContain("a".repeat(64));
    expect(text).not.toContain("scripted");
    expect(pdfInfo(pdf)).toMatch(/Pages:\s+1\b/);
    expect(site.hits("/camera/never-loaded.png")).toBe(before);
  });
});
