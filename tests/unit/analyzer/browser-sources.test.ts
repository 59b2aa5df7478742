import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { browserSources } from "@/lib/analyzer/render/browser";
import { SYSTEM_HEADLESS_SHELL } from "@/lib/analyzer/render/system-browsers";

/**
 * Which browser URL mode launches (lib/analyzer/render/browser.ts): a remote endpoint wins, then the
 * configured executable, then Debian's headless shell when installed, before any full browser. A
 * headless-shell binary is launched in Puppeteer's "shell" mode; a full browser in its new headless mode.
 */
const NO_BROWSER = { BROWSER_WS_ENDPOINT: undefined, PUPPETEER_EXECUTABLE_PATH: undefined };

describe("browser sources", () => {
  it("a remote endpoint is the only source", async () => {
    const sources = await browserSources({
      ...NO_BROWSER,
      BROWSER_WS_ENDPOINT: "ws://127.0.0.1:9222/devtools/browser/x",
    });
    expect(sources).toEqual([{ kind: "remote", wsEndpoint: "ws://127.0.0.1:9222/devtools/browser/x" }]);
  });

  it.each([
    ["/usr/bin/chromium-headless-shell", "shell"],
    ["/opt/chrome-headless-shell-linux64/chrome-headless-shell", "shell"],
    ["/usr/bin/chromium", true],
    ["/opt/google/chrome/chrome", true],
  ] as const)("a configured executable %s launches with headless %s", async (executablePath, headless) => {
    const sources = await browserSources({ ...NO_BROWSER, PUPPETEER_EXECUTABLE_PATH: executablePath });
    expect(sources).toEqual([{ kind: "local", executablePath, extraArgs: [], headless, origin: "env" }]);
  });

  it("Debian's headless shell, when installed, comes before every full browser", async () => {
    const sources = await browserSources(NO_BROWSER);
    const local = sources.flatMap((source) => (source.kind === "local" ? [source] : []));
    const shell = local.findIndex((source) => source.executablePath === SYSTEM_HEADLESS_SHELL);
    const full = local.findIndex((source) => source.headless === true);
    if (existsSync(SYSTEM_HEADLESS_SHELL)) {
      expect(shell).toBe(0);
      expect(local[0]).toMatchObject({ headless: "shell", origin: "system" });
    } else {
      expect(shell).toBe(-1);
    }
    if (full !== -1 && shell !== -1) expect(shell).toBeLessThan(full);
  });
});
