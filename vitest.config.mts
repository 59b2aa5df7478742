import { defineConfig } from "vitest/config";
import { SlowestFirstSequencer } from "./tests/sequencer";
import path from "node:path";
import { fileURLToPath } from "node:url";

const __dirname = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    environment: "node",
    globalSetup: ["tests/global-setup.ts"],
    sequence: { sequencer: SlowestFirstSequencer },
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration suites each start a production server; two cores, so keep files from piling up.
    maxWorkers: 2,
    projects: [
      // The unit files share a worker's modules (isolate: false): each file importing jsdom, DOMPurify
      // and zod afresh cost about a quarter of their CPU (docs/testing.md). tests/unit-leak-guard.ts fails
      // a file that leaves the environment, timers, fetch or process listeners changed for the next one.
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          isolate: false,
          setupFiles: ["tests/unit-leak-guard.ts"],
        },
      },
      // The integration files share a worker process too, each with fresh project modules and the run's
      // starting environment (tests/integration-fresh-modules.ts): packages stay loaded, which was a third
      // of the signed-in suites' CPU when every file started its own process (docs/testing.md).
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          isolate: false,
          setupFiles: ["tests/integration-fresh-modules.ts"],
        },
      },
    ],
  },
});
