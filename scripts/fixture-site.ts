// Runs the fixture site (scripts/lib/fixture-site.ts) on 127.0.0.1:FIXTURE_PORT until SIGINT/SIGTERM:
// Playwright's webServer list starts it for the URL-mode e2e flow (its pages are under /shop).
import { startFixtureSite } from "./lib/fixture-site";

const port = Number(process.env.FIXTURE_PORT ?? 4517);

void startFixtureSite({ port }).then((site) => {
  console.log(`fixture site on ${site.origin}/`);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => void site.close().then(() => process.exit(0)));
});
