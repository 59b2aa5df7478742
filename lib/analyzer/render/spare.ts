import { discardPage, type PageFactory, type PreparedPage, type RenderStack } from "@/lib/analyzer/render/context";
import { STARTUP_ALLOWANCE_MS } from "@/lib/analyzer/render/watchdog";
import { withTimeout } from "@/lib/timeout";

/**
 * The spare page: the next render's context and page, made ready after the previous render. Taking it
 * skips context and page creation (a new renderer process: most of a render's fixed cost), and it is
 * as fresh as one made then: its own incognito context and proxy session, never used for another page,
 * with DNS bound to the render that takes it only then.
 */

/** How long the renderer must be idle before it makes the next render's page (see schedule). */
const SPARE_IDLE_MS = 150;
/** How long a render waits for a spare that is being made before making its own page. */
const SPARE_WAIT_MS = 5_000;

export interface SpareOptions {
  pages: PageFactory;
  /** The renderer's proxy and browser, or null before the first render started them. */
  stack: () => Promise<RenderStack> | null;
  /** true when no render runs or waits. */
  idle: () => boolean;
  /** Off makes every render create its own page on demand. */
  disabled: boolean;
}

export class SparePages {
  /** Renders that used a spare (tests and metrics). */
  used = 0;
  private spare: PreparedPage | null = null;
  /** Settles when the spare being made is ready (or failed). */
  private inProgress: Promise<void> | null = null;
  private closing = false;

  constructor(private readonly options: SpareOptions) {}

  /**
   * The spare, if one is ready and its page still answers; a dead one (the browser crashed or was
   * killed since) is discarded. A spare being made right now is waited for rather than raced: two
   * renderer processes starting at once is what slows a busy machine most.
   */
  async take(): Promise<PreparedPage | null> {
    if (!this.spare && this.inProgress) await withTimeout(this.inProgress, SPARE_WAIT_MS);
    const spare = this.spare;
    this.spare = null;
    if (!spare) return null;
    const page = spare.page?.page;
    const alive =
      page &&
      !page.isClosed() &&
      page.browser().connected &&
      (await withTimeout(
        page.evaluate("1").then(
          () => true,
          () => false,
        ),
        1_000,
      ));
    if (alive) {
      this.used += 1;
      return spare;
    }
    void discardPage(spare);
    return null;
  }

  /**
   * Makes the next render's page once the renderer has been idle a moment (SPARE_IDLE_MS): while
   * renders come back to back, starting a renderer process beside a running render only slows both
   * on a small machine, and that render makes its own page anyway. The page is made while the
   * analysis that just rendered goes on in the worker and the link checker.
   */
  schedule(): void {
    if (this.options.disabled || this.spare || this.inProgress || this.closing) return;
    const timer = setTimeout(() => {
      if (this.options.idle()) this.refill();
    }, SPARE_IDLE_MS);
    timer.unref();
  }

  /** Discards the spare; none is made after this. */
  async close(): Promise<void> {
    this.closing = true;
    const spare = this.spare;
    this.spare = null;
    if (spare) await discardPage(spare);
  }

  /** Starts making the next render's context and page in the background (one spare at a time). */
  private refill(): void {
    if (this.options.disabled || this.spare || this.inProgress || this.closing) return;
    const started = this.options.stack();
    if (!started) return;
    const pages = this.options.pages;
    this.inProgress = (async () => {
      let prepared: PreparedPage | null = null;
      try {
        const ready = await withTimeout(
          started.then(async (running) => {
            prepared = await pages.prepareContext(running);
            return pages.preparePage(prepared);
          }),
          STARTUP_ALLOWANCE_MS,
        );
        if (!ready || this.closing || this.spare) {
          if (prepared) await discardPage(prepared);
          return;
        }
        this.spare = ready;
      } catch {
        if (prepared) await discardPage(prepared);
      } finally {
        this.inProgress = null;
      }
    })();
  }
}
