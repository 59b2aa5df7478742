import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Native or worker-spawning packages run from node_modules, never bundled.
  serverExternalPackages: ["jsdom", "dompurify", "piscina", "puppeteer-core", "@sparticuz/chromium", "pino", "undici", "isbot", "ipaddr.js", "tldts"],
};

export default nextConfig;
