import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** Layout and accessibility checks shared by the phone and the signed-in pages' specs. */

/** The page is no wider than the viewport; on failure, names the outermost elements that stick out. */
export async function expectNoHorizontalScroll(page: Page, state = "page"): Promise<void> {
  const { scrollWidth, clientWidth, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.body.querySelectorAll("*")].filter(
      (element) => element.getBoundingClientRect().right > width + 0.5,
    );
    const outermost = wide.filter((element) => !wide.includes(element.parentElement as Element));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: width,
      culprits: outermost
        .slice(0, 5)
        .map(
          (element) =>
            `${element.tagName.toLowerCase()}.${element.className.toString().slice(0, 80)} → ${Math.round(element.getBoundingClientRect().right)}px`,
        ),
    };
  });
  expect(
    scrollWidth,
    `${state} is wider than the viewport (${clientWidth}px):\n${culprits.join("\n")}`,
  ).toBeLessThanOrEqual(clientWidth);
}

/**
 * axe finds nothing on our UI, whatever the impact. The snapshot iframe is left out: it shows the analysed
 * page's own markup, whose accessibility is that page author's.
 */
export async function expectAxeClean(page: Page, state: string): Promise<void> {
  const result = await new AxeBuilder({ page }).exclude('iframe[title^="Sanitized snapshot"]').analyze();
  const report = result.violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`)
    .join("\n");
  expect(
    result.violations.map((violation) => violation.id),
    `${state}:\n${report}`,
  ).toEqual([]);
}
