// Writes tests/durations.json from the durations Vitest kept of its last full run (its cache), so a
// clean clone, which has no cache, still starts the slowest test files first (tests/sequencer.ts).
// Run after `npx vitest run` on a quiet machine; seconds, rounded, slowest first.
import fs from "node:fs";
import path from "node:path";

const cacheRoot = "node_modules/.vite/vitest";
const results = fs
  .readdirSync(cacheRoot)
  .map((dir) => path.join(cacheRoot, dir, "results.json"))
  .filter((file) => fs.existsSync(file));
if (results.length === 0)
  throw new Error("No Vitest results in node_modules/.vite/vitest: run `npx vitest run` first.");
const durations = {};
for (const [key, { duration }] of JSON.parse(fs.readFileSync(results[0], "utf8")).results) {
  const file = key.replace(/^[^:]*:/, "");
  if (fs.existsSync(file) && duration > 0) durations[file] = Math.round(duration / 1000);
}
const sorted = Object.fromEntries(Object.entries(durations).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
fs.writeFileSync("tests/durations.json", JSON.stringify(sorted, null, 2) + "\n");
console.log(`tests/durations.json: ${Object.keys(sorted).length} files`);
