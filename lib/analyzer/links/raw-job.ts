import { decodeBody } from "./raw-body";
import type { RawBodyListener } from "../render/capture";
import { removedByScript } from "./raw-links";
import type { AnalyzedLink, LinkSignals } from "../types";
import type { AnalyzeJobOptions, AnalyzerPool } from "../worker/pool";

/**
 * The raw body's links of one URL-mode analysis with signals (placement-verdict.md `inRawHtml`): the
 * render hands the navigation response body over as soon as it is read, before the page settles, and
 * its parse runs in the worker pool meanwhile, so the check waits for it little or not at all.
 */
export class RawLinksJob {
  private job: Promise<string[] | null> | null = null;
  private readonly controller = new AbortController();
  /** How long the parse took (ms), for the timings log. */
  ms = 0;

  constructor(
    private readonly pool: AnalyzerPool,
    private readonly options: Pick<AnalyzeJobOptions, "clientKey" | "signal">,
  ) {}

  /** The render's listener: starts the parse of the body's links (the document URL is their base). */
  readonly listener: RawBodyListener = (body, contentType, url) => {
    const started = performance.now();
    const signal = this.options.signal
      ? AbortSignal.any([this.options.signal, this.controller.signal])
      : this.controller.signal;
    this.job = this.pool
      .rawLinks(
        { rawHtml: decodeBody(body, contentType), pageUrl: url },
        { clientKey: this.options.clientKey, lane: "url", signal },
      )
      // Not knowing the raw links is never a failed analysis: inRawHtml is then null.
      .catch(() => null)
      .finally(() => (this.ms = performance.now() - started));
  };

  /** The render failed: the parse is not wanted any more. */
  cancel(): void {
    this.controller.abort();
  }

  /** The raw body's resolved hrefs, or null (no body, or it could not be analysed). */
  async hrefs(): Promise<string[] | null> {
    return this.job ? this.job : null;
  }
}

/** The links' signals with inRawHtml filled in, and the raw links the rendered page no longer has. */
export function withRawLinks(
  links: readonly AnalyzedLink[],
  signals: readonly LinkSignals[],
  rawHrefs: string[] | null,
): { linkSignals: LinkSignals[]; removedByScript: string[] | null } {
  if (rawHrefs === null) return { linkSignals: [...signals], removedByScript: null };
  const raw = new Set(rawHrefs);
  return {
    linkSignals: signals.map((own, index) => ({ ...own, inRawHtml: raw.has(links[index]?.href ?? "") })),
    removedByScript: removedByScript(rawHrefs, new Set(links.map((link) => link.href))),
  };
}
