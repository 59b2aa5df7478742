// Bundles the Node entry points Next's bundler does not produce: the production server and the
// analyzer worker thread. Dependencies stay in node_modules (--packages=external).
import { build } from "esbuild";

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
};

await Promise.all([
  build({ ...common, entryPoints: ["server/main.ts"], outfile: "dist/server.cjs" }),
  build({ ...common, entryPoints: ["lib/analyzer/worker/entry.ts"], outfile: "dist/analyzer-worker.cjs" }),
]);
console.log("built dist/server.cjs and dist/analyzer-worker.cjs");
