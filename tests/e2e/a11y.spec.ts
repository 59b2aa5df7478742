import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { analyzePaste, expect, GUEST_POST_HTML, test } from "./test";

/**
 * axe on our UI. The snapshot iframe is excluded: it shows the analyzed page's own markup, whose
 * accessibility is the page author's, not ours (pasted test HTML has an image without alt on purpose).
 */
async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).exclude('iframe[title^="Sanitized snapshot"]').analyze();
  const serious = result.violations.filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  const report = serious
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`)
    .join("\n");
  expect(
    serious.map((violation) => violation.id),
    `${state}:\n${report}`,
  ).toEqual([]);
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`no serious or critical axe violations, ${colorScheme}`, async ({ page, shot }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto("/");
    await expectNoSeriousViolations(page, "empty form");

    await page.getByRole("button", { name: "Analyze" }).click(); // validation error state
    await expectNoSeriousViolations(page, "validation error");

    await page.getByLabel("Page URL").fill("http://10.0.0.1/");
    await page.getByRole("button", { name: "Analyze" }).click();
    await expect(page.getByTestId("error-panel")).toContainText("INVALID_URL");
    await expectNoSeriousViolations(page, "API error");
    await shot(`15-a11y-error-${colorScheme}`);

    await analyzePaste(page, GUEST_POST_HTML, "shop.example.com");
    await page.getByLabel("Domain or URL to look for").fill("example.org");
    await page
      .getByRole("region", { name: /^Links \(/ })
      .getByRole("button", { name: "Show link 2 in the snapshot" })
      .click();
    await expectNoSeriousViolations(page, "results");
    await shot(`16-results-${colorScheme}`);
  });
}
