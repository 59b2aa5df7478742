import { readdirSync } from "node:fs";
import path from "node:path";

const APP_DIR = path.resolve(__dirname, "..", "..", "app", "(app)");

/**
 * Every page under app/(app)/, as its route pattern ("/app/audits/[id]"): route groups such as "(main)"
 * are not part of the URL. Read from the filesystem, so a new page is in the layout test from day one.
 */
export function appPageRoutes(): string[] {
  const files = readdirSync(APP_DIR, { recursive: true, encoding: "utf8" }).filter(
    (file) => path.basename(file) === "page.tsx",
  );
  return files
    .map((file) => {
      const segments = path
        .dirname(file)
        .split(path.sep)
        .filter((segment) => segment !== "." && !/^\(.*\)$/.test(segment));
      return `/${segments.join("/")}`;
    })
    .sort();
}
