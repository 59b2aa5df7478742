import { readFile } from "node:fs/promises";
import { analyzePaste, expect, GUEST_POST_HTML, snapshotFrame, tableRows, test } from "./test";
import { APP_ORIGIN } from "./ports";

test.describe("paste mode", () => {
  test("paste HTML, read stats, chart and table, find my link, select a row, export", async ({
    page,
    shot,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: APP_ORIGIN });
    await page.goto("/");
    await expect(page).toHaveTitle(/LinkLens/);
    await shot("01-home-light");

    await analyzePaste(page, GUEST_POST_HTML, "shop.example.com");

    // Nine stats, exactly as the API counts them.
    const expected = {
      total: 6,
      internal: 1,
      external: 4,
      ignored: 1,
      follow: 2,
      nofollow: 1,
      sponsored: 1,
      ugc: 1,
      broken: 0,
    };
    for (const [key, value] of Object.entries(expected)) {
      await expect(page.locator(`[data-stat="${key}"] dd`), key).toHaveText(String(value));
    }
    await expect(page.getByTestId("rate-limit")).toHaveText(/^\d+ of 1000 analyses left this minute$/);

    // The chart: three groups, each with its numbers as the text equivalent.
    for (const name of ["Link type", "Rel", "HTTP status"])
      await expect(page.getByRole("figure", { name: new RegExp(`^${name}`) })).toBeVisible();
    await expect(page.getByRole("figure", { name: /^HTTP status/ })).toContainText("Not checked6");

    // The table: every link, with its type, rel badges, image marker.
    const rows = tableRows(page);
    await expect(rows).toHaveCount(6);
    await expect(rows.nth(0)).toContainText("Pricing");
    await expect(rows.nth(0)).toContainText("shop.example.com/pricing");
    await expect(rows.nth(0).getByRole("link")).toHaveAttribute("href", "https://shop.example.com/pricing");
    await expect(rows.nth(0)).toContainText("internal");
    await expect(rows.nth(1)).toContainText("nofollow");
    await expect(rows.nth(5)).toContainText("IMG");
    await expect(rows.nth(5)).toContainText("Forum badge");
    await expect(rows.nth(5)).toContainText("ugc");

    // Sorting and filtering.
    await page.getByRole("button", { name: /^URL/ }).click();
    await expect(page.locator('th[aria-sort="ascending"]')).toContainText("URL");
    await expect(rows.nth(0)).toContainText("blog.example.org/post");
    await page.getByLabel("Rel", { exact: true }).selectOption("follow");
    await expect(rows).toHaveCount(2);
    await page.getByLabel("Search anchor text or URL").fill("pricing");
    await expect(rows).toHaveCount(1);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(rows).toHaveCount(6);
    await page.getByLabel("Type", { exact: true }).selectOption("ignored");
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toContainText("mailto:x@example.com");
    await page.getByRole("button", { name: "Clear filters" }).click();

    // Find my link: domain (with subdomains), exact URL, and a miss.
    const find = page.getByLabel("Domain or URL to look for");
    const verdict = page.getByTestId("find-verdict");
    await find.fill("example.org");
    await expect(verdict).toContainText("Found 2 links to example.org — 1 followed");
    await expect(page.getByRole("list", { name: "Matching links" }).getByRole("listitem")).toHaveCount(2);
    await shot("02-paste-results-find-my-link");
    await find.fill("https://www.example.org/landing");
    await expect(verdict).toContainText("Found 1 link to example.org/landing — 0 followed");
    await find.fill("nothere.com");
    await expect(verdict).toContainText("No link to nothere.com on this page.");

    // Choosing a row highlights that link in the snapshot.
    await page.getByRole("button", { name: "Show link 2 in the snapshot" }).click();
    await expect(page.getByRole("button", { name: "Show link 2 in the snapshot" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect(snapshotFrame(page).locator('[data-linklens-position="2"]')).toHaveAttribute(
      "data-linklens-selected",
      "",
    );
    await shot("03-paste-row-selected");

    // Clicking a link inside the snapshot does not navigate; it selects that row instead.
    await snapshotFrame(page).locator('[data-linklens-position="3"]').click();
    await expect(page.getByRole("button", { name: "Show link 3 in the snapshot" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const frameUrl = await page
      .locator('iframe[title^="Sanitized snapshot"]')
      .evaluate((frame: HTMLIFrameElement) => frame.contentWindow?.location.href);
    expect(frameUrl).toBe("about:srcdoc");
    expect(page.url()).toBe(`${APP_ORIGIN}/`);

    // CSV: header row, quoting, formula guard.
    const [csvDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toMatch(/^linklens-shop\.example\.com-\d{8}-\d{4}\.csv$/);
    const csv = (await readFile(await csvDownload.path(), "utf8")).replace(/^\uFEFF/, "");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "position,href,linkType,anchorText,isNofollow,isSponsored,isUgc,isImage,httpStatus,matchedGroupName",
    );
    expect(lines).toHaveLength(7);
    expect(lines[2]).toBe('2,https://example.org/landing,external,"Partner, ""quoted""",true,false,false,false,,');
    expect(lines[4]).toBe("4,https://sponsor.test/,external,'=Sponsor,false,true,false,false,,");

    // JSON: the API's answer as is.
    const [jsonDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    const json = JSON.parse(await readFile(await jsonDownload.path(), "utf8")) as {
      success: boolean;
      links: unknown[];
      domain: string;
    };
    expect(json.success).toBe(true);
    expect(json.links).toHaveLength(6);
    expect(json.domain).toBe("shop.example.com");

    // Copy as curl: the exact call, which answers the same thing when replayed.
    await page.getByRole("button", { name: "Copy as curl" }).click();
    await expect(page.getByText("curl command copied.")).toBeVisible();
    const command = await page.evaluate(() => navigator.clipboard.readText());
    expect(command).toContain(`curl -X POST '${APP_ORIGIN}/api/demo/analyze'`);
    expect(command).toContain("-H 'Content-Type: application/json'");
    const body = /--data-raw '([\s\S]*)'$/.exec(command)?.[1]?.replaceAll(`'\\''`, "'");
    expect(body).toBeDefined();
    const replay = await page.request.post(`${APP_ORIGIN}/api/demo/analyze`, {
      data: JSON.parse(body ?? "null") as unknown,
    });
    expect(replay.status()).toBe(200);
    expect(((await replay.json()) as { stats: { total: number } }).stats.total).toBe(6);
  });

  test("pasted scripts never run: sandboxed iframe without allow-scripts, CSP inside", async ({ page, shot }) => {
    await page.goto("/");
    await page.evaluate(() => {
      const w = window as unknown as { received: unknown[] };
      w.received = [];
      window.addEventListener("message", (event) => w.received.push(event.data));
    });
    const title = await page.title();
    const payload = `<p><a href="https://example.org/">a link</a></p><img src=x onerror="parent.postMessage('pwned','*')"><script>parent.document.title='pwned';parent.postMessage('pwned','*')</script><a href="javascript:parent.postMessage('pwned','*')">js</a>`;
    await analyzePaste(page, payload);

    const iframe = page.locator('iframe[title^="Sanitized snapshot"]');
    await expect(iframe).toHaveAttribute("sandbox", "allow-same-origin");
    const srcdoc = (await iframe.getAttribute("srcdoc")) ?? "";
    expect(srcdoc).toContain('http-equiv="Content-Security-Policy"');
    expect(srcdoc).toContain("default-src 'none'");
    expect(srcdoc).not.toMatch(/<script/i);
    expect(srcdoc).not.toMatch(/onerror/i);
    await expect(snapshotFrame(page).getByText("a link")).toBeVisible();

    // Give anything that could run every chance to.
    await snapshotFrame(page).getByText("js", { exact: true }).click();
    await page.waitForTimeout(1_000);
    expect(await page.title()).toBe(title);
    expect(await page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([]);
    await shot("04-paste-script-payload");
  });

  test("5,000 links stay usable: paginated, filterable, sortable", async ({ page, shot }) => {
    test.setTimeout(120_000);
    const links = Array.from({ length: 5_000 }, (_, i) => {
      const n = i + 1;
      const rel = n % 10 === 0 ? ' rel="nofollow"' : n % 25 === 0 ? ' rel="sponsored"' : "";
      const href = n % 3 === 0 ? `https://partner${n % 7}.example.net/p/${n}` : `/page/${n}`;
      return `<li><a href="${href}"${rel}>Link number ${n}</a></li>`;
    });
    await page.goto("/");
    await analyzePaste(page, `<!doctype html><html><body><ul>${links.join("")}</ul></body></html>`, "big.example.com");

    const rows = tableRows(page);
    await expect(page.getByTestId("table-count")).toHaveText("Showing 1–100 of 5,000 links");
    await expect(rows).toHaveCount(100);
    await expect(page.getByRole("navigation", { name: "Table pages, top" })).toContainText("Page 1 of 50");
    await page.getByRole("navigation", { name: "Table pages, top" }).getByRole("button", { name: "Last page" }).click();
    await expect(rows.last()).toContainText("Link number 5000");

    const started = Date.now();
    await page.getByLabel("Search anchor text or URL").fill("partner3.example.net");
    await expect(page.getByTestId("table-count")).toContainText("matching (5,000 in all)");
    await page.getByLabel("Rel", { exact: true }).selectOption("nofollow");
    await page.getByRole("button", { name: /^#/ }).click(); // position is sorted ascending by default
    await expect(page.locator('th[aria-sort="descending"]')).toContainText("#");
    expect(Date.now() - started, "filtering and sorting 5,000 links").toBeLessThan(5_000);
    await expect(rows.first()).toContainText("Link number 4980");
    await page.getByRole("button", { name: "Show link 4980 in the snapshot" }).click();
    await expect(snapshotFrame(page).locator('[data-linklens-position="4980"]')).toHaveAttribute(
      "data-linklens-selected",
      "",
    );
    await shot("05-paste-5000-links");
  });
});
