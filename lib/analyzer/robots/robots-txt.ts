import robotsParser from "robots-parser";
import type { Config } from "@/lib/config";
import type { Resolver } from "@/lib/net/resolve";
import { fetchPublic } from "../fetch-public";
import type { RobotsTxtAnswer } from "../types";

/**
 * robots.txt for the page signals of a signed-in analysis (placement-verdict.md "Page signals"): may
 * Googlebot crawl the final URL (its path and query)? Under RFC 9309, read with the maintained
 * `robots-parser` package (most specific group for Googlebot, else `*`; longest match; Allow wins a tie).
 *
 * `/robots.txt` of the final URL's origin is fetched with fetchPublic, the analyzer's guarded request:
 * the address policy of the page at connect time, each of at most 5 redirects checked like the first
 * URL, 5 s for the whole exchange, 512 KiB of body (the rest is not read; RFC 9309 asks crawlers to
 * parse at least 500 KiB). What the answer means:
 *  - 2xx: the file decides (an HTML page or a file without rules for Googlebot allows everything);
 *  - 4xx (403 included), or more than 5 redirects: "allowed" (RFC 9309 2.3.1.2 and 2.3.1.3);
 *  - 5xx, a timeout, an unreachable host or a blocked address (a redirect to a private address
 *    included, which is never requested): "unavailable".
 *
 * The same file answers for other crawlers too (`answers`: google-view.md §3, the page signal `crawlers`):
 * each agent by its own group, else `*` (robots-parser matches the product token case-insensitively and
 * merges the groups that name it), from the same fetch and the same cache entry.
 *
 * One fetch per origin per hour per instance: the parsed file (or the outcome) is cached by origin,
 * concurrent analyses of one origin share one fetch, and an "unavailable" origin is asked again after
 * five minutes, so a passing outage does not stick for an hour. An analysis starts the fetch of the
 * requested URL's origin beside its render (`prefetch`), so a slow robots.txt overlaps the render.
 */

export const ROBOTS_TXT_TIMEOUT_MS = 5_000;
export const ROBOTS_TXT_MAX_BYTES = 512 * 1024;
export const ROBOTS_TXT_MAX_REDIRECTS = 5;
/** The crawler whose rules decide, as robots.txt names it. */
export const ROBOTS_USER_AGENT = "Googlebot";

interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
}

/** An origin's entry as cached: when it was read, and until when it is kept. */
interface Reading {
  entry: Entry;
  readAt: number;
  expiresAt: number;
}

/** What one origin's robots.txt told us: its rules, or a blanket answer. */
type Entry = { kind: "rules"; robots: Robots } | { kind: "all"; answer: "allowed" | "unavailable" };

/** Each agent's answer, in the order asked, and when the robots.txt that gave them was fetched. */
export interface RobotsTxtAnswers {
  answers: RobotsTxtAnswer[];
  /** Epoch ms (this cache's clock) at the end of the fetch; cached answers keep their fetch's time. */
  readAt: number;
}

export interface RobotsTxtCacheOptions {
  settings: Pick<Config, "ALLOW_PRIVATE_HOSTS"> & Partial<Pick<Config, "DENY_HOSTS">>;
  /** Epoch ms; tests inject a clock. */
  now?: () => number;
  /** How long an answer is kept (default one hour; an "unavailable" one, five minutes). */
  ttlMs?: number;
  unavailableTtlMs?: number;
  /** Origins kept at most (the oldest go first). */
  maxOrigins?: number;
  /** Tests: DNS (the guard still applies ALLOW_PRIVATE_HOSTS). */
  resolver?: Resolver;
  /** Tests: a shorter deadline for one fetch than ROBOTS_TXT_TIMEOUT_MS. */
  timeoutMs?: number;
}

export class RobotsTxtCache {
  private readonly entries = new Map<string, Reading>();
  private readonly inflight = new Map<string, Promise<Reading>>();
  private readonly now: () => number;
  /** robots.txt requests sent (tests and the benchmark count them). */
  fetches = 0;

  constructor(private readonly options: RobotsTxtCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Googlebot's answer for `url`; never throws. The fetch is not tied to one analysis (others may be
   * waiting for the same origin): it is bounded by its own 5 s deadline.
   */
  async answer(url: URL): Promise<RobotsTxtAnswer> {
    const [answer] = (await this.answers(url, [ROBOTS_USER_AGENT])).answers;
    return answer ?? "unavailable";
  }

  /**
   * The answer for each of `agents` (robots.txt product tokens) and `url`, in their order, from one
   * reading of the origin's file; never throws.
   */
  async answers(url: URL, agents: readonly string[]): Promise<RobotsTxtAnswers> {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { answers: agents.map(() => "unavailable"), readAt: this.now() };
    }
    const { entry, readAt } = await this.readingFor(url.origin);
    return { answers: agents.map((agent) => answerOf(entry, url, agent)), readAt };
  }

  /**
   * Starts fetching `url`'s origin's robots.txt unless it is cached or on its way: a later answer() for
   * that origin waits only for what is left of it. Never throws.
   */
  prefetch(url: URL): void {
    if (url.protocol !== "http:" && url.protocol !== "https:") return;
    void this.readingFor(url.origin);
  }

  private async readingFor(origin: string): Promise<Reading> {
    const cached = this.entries.get(origin);
    if (cached && cached.expiresAt > this.now()) return cached;
    const running = this.inflight.get(origin);
    if (running) return running;
    const fetching = this.fetchEntry(origin).then((entry) => {
      const readAt = this.now();
      const ttl =
        entry.kind === "all" && entry.answer === "unavailable"
          ? (this.options.unavailableTtlMs ?? 5 * 60_000)
          : (this.options.ttlMs ?? 60 * 60_000);
      const reading = { entry, readAt, expiresAt: readAt + ttl };
      this.remember(origin, reading);
      return reading;
    });
    this.inflight.set(origin, fetching);
    try {
      return await fetching;
    } finally {
      this.inflight.delete(origin);
    }
  }

  private remember(origin: string, reading: Reading): void {
    this.entries.delete(origin);
    this.entries.set(origin, reading);
    const max = this.options.maxOrigins ?? 5_000;
    while (this.entries.size > max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  private async fetchEntry(origin: string): Promise<Entry> {
    const robotsUrl = new URL("/robots.txt", origin);
    this.fetches += 1;
    try {
      return entryOf(robotsUrl, await this.request(robotsUrl));
    } catch {
      return { kind: "all", answer: "unavailable" };
    }
  }

  private request(robotsUrl: URL): ReturnType<typeof fetchPublic> {
    return fetchPublic(robotsUrl, {
      settings: this.options.settings,
      headers: { accept: "text/plain, */*;q=0.5" },
      maxRedirects: ROBOTS_TXT_MAX_REDIRECTS,
      timeoutMs: this.options.timeoutMs ?? ROBOTS_TXT_TIMEOUT_MS,
      maxBodyBytes: ROBOTS_TXT_MAX_BYTES,
      resolver: this.options.resolver,
    });
  }
}

/** One agent's answer for `url` from its origin's entry. */
function answerOf(entry: Entry, url: URL, agent: string): RobotsTxtAnswer {
  if (entry.kind === "all") return entry.answer;
  // The rules are the origin's; robots-parser answers undefined only for another origin.
  return entry.robots.isAllowed(url.href, agent) === false ? "disallowed" : "allowed";
}

/** What a fetch outcome means for the origin (RFC 9309 2.3.1). */
function entryOf(robotsUrl: URL, outcome: Awaited<ReturnType<typeof fetchPublic>>): Entry {
  switch (outcome.kind) {
    case "too_many_redirects":
      return { kind: "all", answer: "allowed" };
    case "blocked":
    case "timeout":
    case "unreachable":
      return { kind: "all", answer: "unavailable" };
    case "response": {
      if (outcome.status >= 500) return { kind: "all", answer: "unavailable" };
      if (outcome.status >= 300) return { kind: "all", answer: "allowed" };
      if (outcome.status < 200) return { kind: "all", answer: "unavailable" };
      let text = outcome.body.toString("utf8");
      // A file cut at the cap: its last, partial line is not a rule.
      if (outcome.truncated) text = text.slice(0, Math.max(0, text.lastIndexOf("\n")));
      return { kind: "rules", robots: robotsParser(robotsUrl.href, text) as Robots };
    }
  }
}
