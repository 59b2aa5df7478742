import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putLogo } from "@/app/api/account/branding/logo/route";
import { PATCH as patchBranding } from "@/app/api/account/branding/route";
import { GET as getReport } from "@/app/api/account/evidence/[id]/report.pdf/route";
import { shutdownAnalyzer } from "@/lib/analyzer";
import type { Database } from "@/lib/db";
import { evidence } from "@/lib/db/schema";
import { BACKENDS, call, closeAll, makeRequest, ORIGIN, useFreshDatabase } from "./harness";
import { insertLinkWithHistory, insertMonitor } from "./history-setup";
import { makeSoloOwner } from "./team-setup";
import { pngOf } from "../../helpers/images";
import { pdfText, withPdfFile } from "../../helpers/pdf-text";
import { TEST_CHROMIUM } from "@/scripts/lib/chromium";

/**
 * The evidence PDF in the organization's branding (reports-and-channels.md "Branding"), printed by the
 * product's Chromium and read back: its text through poppler's pdftotext (the display name at the top,
 * the footer at the bottom, on the one printed page even with the longest footer and a tall screenshot),
 * its colours through pdftoppm (the top band is the accent).
 */

process.env.BETTER_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";
process.env.PUPPETEER_EXECUTABLE_PATH ??= TEST_CHROMIUM;

afterAll(async () => {
  await shutdownAnalyzer();
  await closeAll();
});

const FOOTER_LINES = [
  "Northwind Digital Ltd · 1 Harbour Road, Bristol BS1 4QA · Registered in England no. 01234567",
  "Questions about this report: reports@northwind.example or +44 117 496 0000 (weekdays, 9:00–17:30 UK time).",
  "Prepared for the client named on the share; evidence is kept for 400 days, sent on request.",
];
/** The longest footer there may be (300 characters). */
const FOOTER = FOOTER_LINES.join("\n").padEnd(300, ".");

/** The PDF's pages as PNGs at 50 dpi (A4: 414 × 585 pixels), decoded. */
function pdfPages(pdf: Buffer) {
  return withPdfFile(pdf, (file, dir) => {
    execFileSync("pdftoppm", ["-r", "50", "-png", file, join(dir, "page")]);
    const names = execFileSync("ls", [dir], { encoding: "utf8" })
      .split("\n")
      .filter((name) => name.startsWith("page"));
    return names.map((name) => PNG.sync.read(readFileSync(join(dir, name))));
  });
}

describe.each(BACKENDS)("the evidence PDF, branded (%s)", (backend) => {
  let database: Database;
  let owner: Awaited<ReturnType<typeof makeSoloOwner>>;
  let evidenceId = "";

  beforeAll(async () => {
    database = await useFreshDatabase(backend);
    owner = await makeSoloOwner(`pdf-${backend}`);
    const monitorId = await insertMonitor(database, owner.organizationId, { url: "https://blog.example/guest-post" });
    const linkId = await insertLinkWithHistory(database, owner.organizationId, monitorId, new Date());
    evidenceId = randomUUID();
    await database.db.insert(evidence).values({
      id: evidenceId,
      organizationId: owner.organizationId,
      monitorId,
      trackedLinkId: linkId,
      capturedAt: new Date("2026-11-26T10:42:13Z"),
      reason: "state_change",
      pageUrl: "https://blog.example/guest-post",
      target: "https://shop.example/",
      match: "prefix",
      finalUrl: "https://blog.example/guest-post/",
      httpStatus: 200,
      htmlSha256: "a".repeat(64),
      htmlBytes: 12_345,
      link: {
        href: "https://shop.example/shoes",
        position: 7,
        linkType: "external",
        anchorText: "the best shoes",
        isNofollow: true,
        isSponsored: false,
        isUgc: false,
        isImage: false,
        httpStatus: 200,
        matchedGroupName: null,
        signals: { inRawHtml: false, hidden: true, region: "footer", inGoogleView: null },
      },
      verdict: {
        value: "does_not_count",
        reasons: ["nofollow", "hidden", "page_noindex", "robots_disallowed", "script_only"],
      },
      // A tall screenshot: the image takes all the height it may.
      screenshotPng: await pngOf(1280, 2400, { r: 240, g: 240, b: 240 }),
      screenshotWidth: 1280,
      screenshotHeight: 2400,
      screenshotBytes: 1,
      linkBox: { x: 10, y: 10, width: 100, height: 20 },
    });
  });

  async function report(): Promise<Buffer> {
    const response = await getReport(makeRequest("GET", "/x", { cookie: owner.cookie }), {
      params: Promise.resolve({ id: evidenceId }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    return Buffer.from(await response.arrayBuffer());
  }

  it("without branding: the organization's name at the top, no footer of its own", async () => {
    const text = pdfText(await report());
    expect(text).toContain(`pdf-${backend}-owner's team`);
    expect(text).not.toContain("Northwind");
  });

  it("with it: the display name at the top, the footer at the bottom of the one page, the accent on the band", async () => {
    const patched = await call(patchBranding, "PATCH", "/api/account/branding", {
      cookie: owner.cookie,
      body: { displayName: "Northwind Digital", accentColor: "#7c3aed", footer: FOOTER },
    });
    expect(patched.status, patched.text).toBe(200);
    const logo = await pngOf(600, 150, { r: 250, g: 120, b: 0 });
    const uploaded = await putLogo(
      new Request(`${ORIGIN}/api/account/branding/logo`, {
        method: "PUT",
        headers: {
          host: "localhost:3000",
          "x-linklens-client-key": "127.0.0.1",
          origin: ORIGIN,
          cookie: owner.cookie,
          "content-type": "image/png",
        },
        body: logo,
      }),
      { params: Promise.resolve({}) },
    );
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);

    const pdf = await report();
    const text = pdfText(pdf);
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    expect(lines[0]).toContain("Northwind Digital");
    expect(text).toContain("Placement evidence");
    const flat = text.replace(/\s+/g, " ");
    for (const line of FOOTER_LINES) expect(flat).toContain(line.replace(/\s+/g, " "));
    // The organization's footer is on the page, and LinkLens's own line after it.
    expect(flat.indexOf(FOOTER_LINES[2] ?? "")).toBeLessThan(flat.indexOf("by LinkLens"));

    const pages = pdfPages(pdf);
    expect(pages).toHaveLength(1);
    const page = pages[0] as PNG;
    // The band starts under the 12 mm margin (24 px at 50 dpi): sample its right-hand part, clear of the text.
    const at = (x: number, y: number) => [
      ...page.data.subarray((y * page.width + x) * 4, (y * page.width + x) * 4 + 3),
    ];
    const band = at(Math.round(page.width * 0.85), 24 + 12);
    expect(
      band.map((c, i) => Math.abs(c - [0x7c, 0x3a, 0xed][i]!) <= 6),
      `band pixel ${band}`,
    ).toEqual([true, true, true]);
    // The logo's orange is drawn on the band (on its white tile), left of the name.
    let orange = false;
    for (let x = 24; x < page.width / 2 && !orange; x += 1)
      for (let y = 24; y < 60 && !orange; y += 1) {
        const [r, g, b] = at(x, y);
        orange = Math.abs((r ?? 0) - 250) <= 8 && Math.abs((g ?? 0) - 120) <= 8 && (b ?? 255) <= 10;
      }
    expect(orange).toBe(true);
  }, 60_000);
});
