import { analyzePaste, chooseMode, expect, GUEST_POST_HTML, test } from "./test";
import { LIMITED_ORIGIN } from "./ports";

interface ErrorBody {
  error: string;
  hint: string;
  errorCode: string;
}

test("a blocked URL shows the API's error and hint next to the form", async ({ page, shot }) => {
  await page.goto("/");
  await page.getByLabel("Page URL").fill("http://10.0.0.1/");
  const [response] = await Promise.all([
    page.waitForResponse("**/api/demo/analyze"),
    page.getByLabel("Page URL").press("Enter"),
  ]);
  expect(response.status()).toBe(400);
  const body = (await response.json()) as ErrorBody;

  const alert = page.getByTestId("error-panel");
  await expect(alert).toHaveAttribute("role", "alert");
  await expect(alert).toContainText(body.error);
  await expect(alert).toContainText(body.hint);
  await expect(alert).toContainText(body.errorCode);
  await expect(page.getByTestId("rate-limit")).toBeVisible();
  await expect(page.getByTestId("results")).toHaveCount(0);
  await shot("08-error-blocked-url");
});

test("browser-side validation catches mistakes before any request", async ({ page, shot }) => {
  let requests = 0;
  page.on("request", (request) => {
    if (request.url().endsWith("/api/demo/analyze")) requests += 1;
  });
  await page.goto("/");
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page.getByText("Enter the address of the page to analyze.")).toBeVisible();
  await expect(page.getByLabel("Page URL")).toBeFocused();
  await expect(page.getByLabel("Page URL")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Page URL").fill("ftp://example.com/file");
  await page.getByLabel("Page URL").press("Enter");
  await expect(page.getByText("Only http:// and https:// pages can be analyzed.")).toBeVisible();
  await shot("09-validation-url");

  await chooseMode(page, "Paste HTML");
  await page.getByRole("button", { name: "Analyze" }).click();
  await expect(page.getByText("Paste the page's HTML (view-source, copy, paste).")).toBeVisible();
  await expect(page.getByLabel("HTML", { exact: true })).toBeFocused();
  expect(requests).toBe(0);
});

test("429: the wait until the limit resets counts down", async ({ page, shot }) => {
  // A second server allowing one analysis a minute, so the real limiter answers the 429.
  await page.goto(LIMITED_ORIGIN);
  await analyzePaste(page, GUEST_POST_HTML);
  await expect(page.getByTestId("rate-limit")).toHaveText("0 of 1 analyses left this minute");

  const [response] = await Promise.all([
    page.waitForResponse("**/api/demo/analyze"),
    page.getByRole("button", { name: "Analyze" }).click(),
  ]);
  expect(response.status()).toBe(429);
  const headers = response.headers();
  const retryAfter = Number(headers["retry-after"]);
  // Retry-After is the wait until the reset, as of the answer (both whole seconds, from the server's clock).
  const answeredAt = Date.parse(headers["date"] ?? "") / 1000;
  expect(Math.abs(Number(headers["x-ratelimit-reset"]) - answeredAt - retryAfter)).toBeLessThanOrEqual(1);
  const body = (await response.json()) as ErrorBody;

  const alert = page.getByTestId("error-panel");
  await expect(alert).toContainText(body.error);
  await expect(alert).toContainText(body.hint);
  const countdown = page.getByTestId("retry-countdown");
  await expect(countdown).toHaveText(/^You can try again in \d+s\.$/);
  const secondsShown = async () => Number(/in (\d+)s/.exec((await countdown.textContent()) ?? "")?.[1]);
  // The page counts from Retry-After; how far it got depends on the machine's load, not on the answer.
  const shown = await secondsShown();
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThanOrEqual(retryAfter);
  // It counts down.
  await expect(countdown).not.toHaveText(`You can try again in ${shown}s.`);
  if (shown > 1) expect(await secondsShown()).toBeLessThan(shown);
  // The earlier results stay on screen.
  await expect(page.getByTestId("results")).toBeVisible();
  await shot("10-error-429");
});
