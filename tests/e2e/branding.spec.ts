import type { Page } from "@playwright/test";
import { gifOf, pngOf } from "../helpers/images";
import { signUp } from "./app-data";
import { confirmOwnAddress } from "./confirm-address";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { APP_ORIGIN } from "./ports";
import { expect, saveScreenshot, test } from "./test";

/**
 * Settings → Branding against the production build (reports-and-channels.md "Branding"): an owner sets
 * the display name, accent colour and footer with the live preview following every keystroke (the text
 * on the accent black or white, with its contrast), a malformed colour cannot be saved, a logo is
 * uploaded and stored scaled to fit 512 × 512; SVG, GIF and oversized files are refused with the reason
 * before anything is sent, bytes that are not the PNG they claim are refused by the server; the client
 * report (/r/) shows the logo, name, colour and footer; the logo is removed; a viewer of the team reads
 * the same page without a control. Looked at on a laptop (1280) and a phone (390), light and dark,
 * axe-clean.
 */

type Shot = (name: string, options?: { fullPage?: boolean }) => Promise<void>;

async function lookAt(page: Page, shot: Shot, name: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalScroll(page, `${name} at ${width}px, ${colorScheme}`);
      await expectAxeClean(page, `${name} at ${width}px, ${colorScheme}`);
      await shot(`branding-${name}-${width}-${colorScheme}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "light" });
}

/** Removes the one console line Chromium logs for a refused request: it is the step's expected answer. */
function expectRefusalLogged(consoleErrors: string[], status: string, path: string): void {
  const index = consoleErrors.findIndex((line) => line.includes(status) && line.includes(path));
  expect(index, `a "${status}" for ${path} in ${JSON.stringify(consoleErrors)}`).toBeGreaterThanOrEqual(0);
  consoleErrors.splice(index, 1);
}

test("an owner brands the team's reports, a client report shows it, a viewer reads it", async ({
  page,
  browser,
  shot,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const run = Date.now();
  await signUp(page, "Bea", `bea-${run}@example.com`);

  await page.goto("/app/settings");
  await page.getByRole("link", { name: "Edit the branding" }).click();
  await expect(page.getByRole("heading", { name: "Branding", level: 1 })).toBeVisible();
  await expect(page.getByText("No logo: reports show your name alone.")).toBeVisible();
  const band = page.getByTestId("brand-preview-band");
  const contrast = page.getByTestId("brand-contrast");
  await expect(band).toContainText("Client report by Bea's team");
  await expect(contrast).toContainText("No accent colour");
  await lookAt(page, shot, "empty");

  // The preview follows the form before anything is saved.
  const save = page.getByRole("button", { name: "Save branding" });
  await page.getByRole("textbox", { name: "Display name" }).fill("Northwind Digital");
  await expect(band).toContainText("Client report by Northwind Digital");
  const accent = page.getByRole("textbox", { name: "Accent colour", exact: true });
  await accent.fill("#ffcc0");
  await expect(page.getByText("Write the colour as # and six hexadecimal digits, e.g. #0f766e.")).toBeVisible();
  await expect(accent).toHaveAttribute("aria-invalid", "true");
  await expect(save).toBeDisabled();
  await accent.fill("#FFCC00");
  await expect(save).toBeEnabled();
  await expect(band).toHaveCSS("background-color", "rgb(255, 204, 0)");
  // Yellow takes black text (white on it would be 1.5:1).
  await expect(band).toHaveCSS("color", "rgb(0, 0, 0)");
  await expect(contrast).toHaveText(/^Text on #ffcc00 is black: contrast 13\.9:1 \(WCAG AA asks 4\.5:1\)\.$/);
  await accent.fill("#0f766e");
  await expect(band).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(band).toHaveCSS("color", "rgb(255, 255, 255)");
  await expect(contrast).toHaveText(/^Text on #0f766e is white: contrast 5\.5:1/);
  const footer = "Northwind Digital Ltd · 1 Harbour Road, Bristol\nQuestions: reports@northwind.example";
  await page.getByRole("textbox", { name: "Footer" }).fill(footer);
  await expect(page.getByTestId("brand-preview")).toContainText("Questions: reports@northwind.example");
  await save.click();
  await expect(page.getByText("Branding saved: new reports and PDFs use it.")).toBeVisible();

  // A logo: refused kinds are explained before anything is sent.
  const chooser = page.locator('input[type="file"]');
  await chooser.setInputFiles({
    name: "logo.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await expect(page.getByText(/^SVG logos are not accepted: an SVG can carry scripts/)).toBeVisible();
  await chooser.setInputFiles({ name: "logo.gif", mimeType: "image/gif", buffer: await gifOf(40, 40) });
  await expect(page.getByText("A GIF is not accepted: upload a PNG or a JPEG.")).toBeVisible();
  await chooser.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(300 * 1024) });
  await expect(page.getByText(/^The file is 300 KiB; a logo may be at most 256 KiB\./)).toBeVisible();
  // Bytes that are not the PNG they claim to be: the server refuses them, and the page says why.
  await chooser.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("GIF89a, really") });
  await expect(page.getByText(/The file is not a readable PNG image: it does not begin like one\./)).toBeVisible();
  expectRefusalLogged(consoleErrors, "400 (Bad Request)", "/api/account/branding/logo");
  await shot("branding-refused-1280-light");

  // A wide logo is kept scaled to fit 512 × 512.
  const orange = { r: 250, g: 120, b: 0 };
  await chooser.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await pngOf(1024, 256, orange) });
  await expect(page.getByText("Logo saved (512 × 128 pixels).")).toBeVisible();
  await expect(page.getByText(/^Stored as a PNG of 512 × 128 pixels/)).toBeVisible();
  const logo = page.getByTestId("logo-image");
  await expect(logo).toHaveAttribute("alt", "Northwind Digital logo");
  // The new image's bytes arrive after its element: poll until it has decoded.
  await expect
    .poll(() => logo.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]))
    .toEqual([512, 128]);
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Display name" })).toHaveValue("Northwind Digital");
  await expect(page.getByRole("textbox", { name: "Accent colour", exact: true })).toHaveValue("#0f766e");
  await expect(page.getByRole("textbox", { name: "Footer" })).toHaveValue(footer);
  await expect(page.getByTestId("logo-image")).toBeVisible();
  await lookAt(page, shot, "branded");

  // A client report shows it all: the logo as a data: URL (its policy loads no image file), the name, the
  // colour from the accent stylesheet, the footer.
  const audit = await page.request.post("/api/account/audits", {
    headers: { origin: APP_ORIGIN },
    data: { html: '<p><a href="https://shop.example/">Shop</a></p>', domain: "blog.example" },
  });
  expect(audit.status(), await audit.text()).toBe(201);
  const share = await page.request.post("/api/account/shares", {
    headers: { origin: APP_ORIGIN },
    data: { title: "Acme: the guest post", scope: "audit", auditId: ((await audit.json()) as { id: string }).id },
  });
  expect(share.status(), await share.text()).toBe(201);
  const reportPage = await (await browser.newContext()).newPage();
  reportPage.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`report: ${message.text()}`);
  });
  await reportPage.goto(((await share.json()) as { url: string }).url);
  const header = reportPage.getByTestId("report-brand");
  await expect(header).toContainText("Client report by Northwind Digital");
  await expect(header).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(header).toHaveCSS("color", "rgb(255, 255, 255)");
  const reportLogo = header.getByRole("img", { name: "Northwind Digital logo" });
  await expect(reportLogo).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect.poll(() => reportLogo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(512);
  await expect(reportPage.getByTestId("report-footer")).toHaveText(footer);
  await expect(reportPage).toHaveTitle("Acme: the guest post — Northwind Digital");
  await expectAxeClean(reportPage, "the branded client report");
  await saveScreenshot(reportPage, "branding-client-report-1280");
  await reportPage.context().close();

  // Removed: the report goes back to the name alone.
  await page.getByRole("button", { name: "Remove the logo" }).click();
  await expect(page.getByText("Logo removed.")).toBeVisible();
  await expect(page.getByText("No logo: reports show your name alone.")).toBeVisible();
  await expect(page.getByTestId("logo-image")).toHaveCount(0);

  // A viewer of the team reads the same branding, with no control.
  const viewerEmail = `vic-${run}@example.com`;
  const invitation = await page.request.post("/api/account/invitations", {
    headers: { origin: APP_ORIGIN },
    data: { email: viewerEmail, role: "viewer" },
  });
  expect(invitation.status(), await invitation.text()).toBe(201);
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  viewer.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`viewer: ${message.text()}`);
  });
  await signUp(viewer, "Vic", viewerEmail);
  await confirmOwnAddress(viewer.request);
  const accepted = await viewer.request.post("/api/auth/organization/accept-invitation", {
    headers: { origin: APP_ORIGIN },
    data: { invitationId: ((await invitation.json()) as { id: string }).id },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  await viewer.goto("/app/settings");
  await viewer.getByRole("link", { name: "See the branding" }).click();
  await expect(
    viewer.getByText("Only admins and owners change the branding; this is how your reports look."),
  ).toBeVisible();
  await expect(viewer.getByRole("textbox", { name: "Display name" })).toHaveValue("Northwind Digital");
  await expect(viewer.getByRole("textbox", { name: "Display name" })).not.toBeEditable();
  await expect(viewer.getByRole("textbox", { name: "Footer" })).not.toBeEditable();
  await expect(viewer.getByTestId("brand-preview-band")).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await expect(viewer.getByRole("button", { name: "Save branding" })).toHaveCount(0);
  await expect(viewer.locator('input[type="file"]')).toHaveCount(0);
  for (const colorScheme of ["light", "dark"] as const) {
    await viewer.emulateMedia({ colorScheme });
    await expectAxeClean(viewer, `the viewer's page, ${colorScheme}`);
  }
  await saveScreenshot(viewer, "branding-viewer-1280-dark");
  await viewerContext.close();
});
