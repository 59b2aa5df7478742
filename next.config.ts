import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // "/api/x/" must answer like "/api/x" (JSON), not with an HTML-ish 308.
  skipTrailingSlashRedirect: true,
  // `npm run typecheck` runs tsc over the whole project (tests included) in CI; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
  // Native or worker-spawning packages run from node_modules, never bundled.
  serverExternalPackages: [
    "jsdom",
    "dompurify",
    "piscina",
    "puppeteer-core",
    "@sparticuz/chromium",
    "pino",
    "undici",
    "isbot",
    "ipaddr.js",
    "tldts",
    // Accounts: PGlite loads its WASM and data files from its package directory; pg and nodemailer are Node-only.
    "@electric-sql/pglite",
    "pg",
    "nodemailer",
    // Branding: sharp loads libvips, a native binary of its platform package (@img/sharp-<platform>).
    "sharp",
  ],
};

export default nextConfig;
