import { defineConfig, devices } from "@playwright/test";
import {
  APP_ORIGIN,
  APP_PORT,
  FIXTURE_ORIGIN,
  FIXTURE_PORT,
  LIMITED_ORIGIN,
  LIMITED_PORT,
  SMTP_PORT,
} from "./tests/e2e/ports";
import os from "node:os";
import path from "node:path";
import { TEST_CHROMIUM } from "./scripts/lib/chromium";
import { keepTmpFilesInMemory } from "./scripts/lib/memory-tmpdir";

/**
 * End-to-end tests of the landing page against the production build (`npm run build` first).
 * Three servers: the app, a second app instance allowing 1 analysis a minute (the 429 flow), and a
 * local fixture site for URL mode. Debian's Chromium is used; no browser is ever downloaded.
 *
 * The run's temporary files, the app servers' databases among them, live in memory when the machine allows
 * (scripts/lib/memory-tmpdir.ts); a later test run removes what this one left there.
 */
keepTmpFilesInMemory();

const appEnv = (port: number, perMinute: string) => ({
  // One embedded database per app server, fresh each run (PGlite serves one process).
  DATA_DIR: path.join(os.tmpdir(), "e2e-data", `${port}-${process.pid}`),
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  PORT: String(port),
  HOSTNAME: "127.0.0.1",
  RATE_LIMIT_PER_MINUTE: perMinute,
  ALLOW_PRIVATE_HOSTS: `127.0.0.1:${FIXTURE_PORT}`,
  BOT_PROTECTION: "on",
  PUPPETEER_EXECUTABLE_PATH: TEST_CHROMIUM,
  LOG_LEVEL: "warn",
});

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // Budgets, not expectations of speed: `npm test` runs this suite beside Vitest on two cores.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: APP_ORIGIN,
    viewport: { width: 1440, height: 900 },
    // No trace: its DOM snapshotter evaluates scripts in every frame, which the sandboxed snapshot
    // refuses with a console error ("Blocked script execution in 'about:srcdoc'") that would mask real ones.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: TEST_CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: [
    {
      command: "node --import tsx scripts/fixture-site.ts",
      env: { FIXTURE_PORT: String(FIXTURE_PORT) },
      url: `${FIXTURE_ORIGIN}/health`,
      reuseExistingServer: false,
      timeout: 15_000,
    },
    {
      command: "node dist/server.cjs",
      // The accounts test reads this app's emails from an SMTP server it starts on SMTP_PORT.
      env: {
        ...appEnv(APP_PORT, "1000"),
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        MAIL_FROM: "LinkLens <noreply@linklens.test>",
      },
      url: `${APP_ORIGIN}/api/v1/health`,
      reuseExistingServer: false,
      // A start deadline, not a margin: migrations and worker warm-up took 61 s at load average 25.
      timeout: 180_000,
    },
    {
      command: "node dist/server.cjs",
      env: appEnv(LIMITED_PORT, "1"),
      url: `${LIMITED_ORIGIN}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 180_000,
    },
  ],
});
