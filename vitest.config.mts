import { defineConfig } from "vitest/config";
import { SlowestFirstSequencer } from "./tests/sequencer";
import path from "node:path";
import { fileURLToPath } from "node:url";

const __dirname = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: { alias: { "@": path.resolve(__dirname) } },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/global-setup.ts"],
    sequence: { sequencer: SlowestFirstSequencer },
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Integration suites each start a production server; two cores, so keep files from piling up.
    maxWorkers: 2,
  },
});
