import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Slowest test files first, from tests/durations.json (`node scripts/test-durations.mjs` refreshes it), so
 * that on a clean clone — no Vitest cache — no long file starts last while the other worker idles. A file
 * missing from the list (a new one) counts as a slow one, as Vitest's own order would run it first.
 */
const UNKNOWN_SECONDS = 60;

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const known: Record<string, number> = JSON.parse(
      fs.readFileSync(path.join(root, "tests", "durations.json"), "utf8"),
    );
    const seconds = (spec: TestSpecification) =>
      known[path.relative(root, spec.moduleId).split(path.sep).join("/")] ?? UNKNOWN_SECONDS;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
