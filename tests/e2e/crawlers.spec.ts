import type { APIRequestContext, Page } from "@playwright/test";
import { signUp } from "./app-data";
import { expectAxeClean, expectNoHorizontalScroll } from "./layout";
import { APP_ORIGIN, FIXTURE_ORIGIN } from "./ports";
import { expect, test } from "./test";

/**
 * The monitor page's crawler row (google-view.md §3, §4; production build, the fixture site whose
 * robots.txt keeps GPTBot and CCBot out of /verdict/ai-crawlers-blocked): the sentence in words, each
 * agent under it in the one order, and the all-allowed state. Looked at on a laptop (1280) and a phone
 * (390), light and dark: screenshots, no sideways scrolling, axe-clean.
 */

const TARGET = `${FIXTURE_ORIGIN}/p/verdict-target`;
const AGENTS = [
  "Googlebot",
  "Bingbot",
  "GPTBot",
  "OAI-SearchBot",
  "ChatGPT-User",
  "ClaudeBot",
  "Claude-SearchBot",
  "PerplexityBot",
  "Google-Extended",
  "Applebot-Extended",
  "CCBot",
];

async function post(request: APIRequestContext, path: string, data?: unknown): Promise<{ id: string }> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const response = await request.post(path, { data, headers: { origin: APP_ORIGIN } });
    // A scheduled check of a new monitor may hold it for a moment: "Check now" then answers 409.
    if (response.status() === 409) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
    return (await response.json()) as { id: string };
  }
  throw new Error(`${path} stayed busy`);
}

/** A monitor of a fixture page tracking the verdict target, checked now; its id. */
async function watch(request: APIRequestContext, path: string): Promise<string> {
  const { id } = await post(request, "/api/account/monitors", {
    url: `${FIXTURE_ORIGIN}${path}`,
    links: [{ target: TARGET }],
  });
  await post(request, `/api/account/monitors/${id}/check`);
  return id;
}

type Shot = (name: string, options?: { fullPage?: boolean }) => Promise<void>;

async function lookAt(page: Page, shot: Shot, name: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoHorizontalScroll(page, `${name} at ${width}px, ${colorScheme}`);
      await page.getByTestId("page-signals").scrollIntoViewIfNeeded();
      await shot(`crawlers-${name}-${width}-${colorScheme}`, { fullPage: false });
      await expectAxeClean(page, `${name} at ${width}px, ${colorScheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the monitor page's crawler row: blocked AI crawlers in words, each agent, and all allowed", async ({
  page,
  shot,
}) => {
  test.setTimeout(180_000);
  await signUp(page, "Cora", `cora-${Date.now()}@example.com`);
  const blocked = await watch(page.request, "/verdict/ai-crawlers-blocked");
  const open = await watch(page.request, "/verdict/counts");

  await page.goto(`/app/monitors/${blocked}`);
  const signals = page.getByTestId("page-signals");
  const row = signals.locator('[data-signal="crawlers"]');
  await expect(row).toContainText("AI crawlers: GPTBot and CCBot blocked");
  // Not a verdict reason: the link still counts, and the row is not marked as trouble.
  await expect(page.getByTestId(`link-${TARGET}`).getByText("Counts", { exact: true })).toBeVisible();
  await expect(row).not.toHaveAttribute("data-trouble", /.*/);
  await expect(signals.locator('[data-signal="robots"]')).toHaveText("allowed");
  const list = row.getByTestId("crawler-list");
  await list.locator("summary").click();
  await expect(list.locator("li")).toHaveText(
    AGENTS.map((agent) => {
      const kind = agent === "Googlebot" || agent === "Bingbot" ? "search" : "AI";
      return `${agent} (${kind}): ${agent === "GPTBot" || agent === "CCBot" ? "blocked" : "allowed"}`;
    }),
  );
  await lookAt(page, shot, "blocked");

  await page.goto(`/app/monitors/${open}`);
  await expect(page.getByTestId("page-signals").locator('[data-signal="crawlers"]')).toContainText(
    "all allowed (search and AI crawlers)",
  );
  await lookAt(page, shot, "allowed");
});
