import { z } from "zod";

/**
 * Every environment variable LinkLens reads, parsed once with the defaults of decisions.md.
 * A bad value throws at start with a message naming the variable, never a silent fallback.
 */

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const nonNegativeInt = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optionalUrl = z.preprocess(emptyToUndefined, z.url().optional());
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

/** `host:port` pairs that may be fetched although not public (tests only). Hosts are compared lowercased. */
const hostPortList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (!raw) return [] as string[];
      const entries = raw
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean);
      for (const entry of entries) {
        if (!/^(\[[0-9a-f:.]+\]|[^\s:/\[\]]+):\d{1,5}$/.test(entry)) {
          ctx.addIssue({ code: "custom", message: `"${entry}" is not host:port` });
        }
      }
      return entries;
    }),
);

/**
 * DENY_HOSTS: hostnames or registrable domains, each covering its subdomains. Entries are normalised the
 * way URL.hostname is (lowercase, IDN → punycode, no trailing dot) so they compare with parsed URLs.
 */
const hostList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (!raw) return [] as string[];
      const hosts: string[] = [];
      for (const entry of raw
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean)) {
        let host: string | null = null;
        try {
          const url = new URL(`http://${entry}/`);
          // No port, path, credentials, query or fragment: only a name. IPv6 literals lose their brackets.
          if (url.host === url.hostname && url.pathname === "/" && !url.username && !url.search && !url.hash) {
            host = url.hostname.replace(/\.+$/, "").replace(/^\[|\]$/g, "");
          }
        } catch {
          host = null;
        }
        if (!host) ctx.addIssue({ code: "custom", message: `"${entry}" is not a host name` });
        else hosts.push(host);
      }
      return hosts;
    }),
);

const onOff = z.preprocess(
  (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
  z.enum(["on", "off"]).default("on"),
);

export const configSchema = z.object({
  RATE_LIMIT_PER_MINUTE: positiveInt(10),
  DEMO_URL_MONTHLY_BUDGET: nonNegativeInt(1000),
  MAX_HTML_BYTES: positiveInt(2_097_152),
  RENDER_TIMEOUT_MS: positiveInt(15_000),
  MAX_CONCURRENT_RENDERS: positiveInt(2),
  LINK_CHECK_MAX: nonNegativeInt(100),
  LINK_CHECK_CONCURRENCY: positiveInt(8),
  LINK_CHECK_TIMEOUT_MS: positiveInt(5_000),
  PUPPETEER_EXECUTABLE_PATH: optionalString,
  BROWSER_WS_ENDPOINT: optionalString,
  ALLOW_PRIVATE_HOSTS: hostPortList,
  DENY_HOSTS: hostList,
  BOT_PROTECTION: onOff,
  /** Not in decisions.md: `off` refuses URL mode to MCP clients (BOT_DETECTED), whom the bot check cannot tell apart. */
  MCP_URL_MODE: onOff,
  TRUSTED_PROXY_HOPS: nonNegativeInt(0),
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  /** Not in decisions.md: the longest wait for Upstash per call before a limit is answered in-process. */
  RATE_LIMIT_STORE_TIMEOUT_MS: positiveInt(1000),
  /** Not in decisions.md: after Upstash failed, how long limits stay in-process before it is asked again (0: every call asks). */
  RATE_LIMIT_STORE_COOLDOWN_MS: nonNegativeInt(5000),
  SITE_URL: optionalUrl,
  /** Not in decisions.md: the cap on one analysis job in the worker pool (422 past it). */
  ANALYSIS_TIMEOUT_MS: positiveInt(20_000),
  /** Not in decisions.md: the heap cap of one analysis worker thread (422 past it). */
  ANALYSIS_MAX_HEAP_MB: positiveInt(1536),
  /** Not in decisions.md: worker time one client may use per minute; default 2 × ANALYSIS_TIMEOUT_MS. */
  ANALYSIS_CLIENT_BUDGET_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  /** Not in decisions.md: analysis jobs one client may have running at once (a benchmark from one address may raise it). */
  ANALYSIS_JOBS_PER_CLIENT: positiveInt(1),
  /** Accounts: PostgreSQL (postgres://…); unset → the embedded PGlite database in DATA_DIR. */
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /** Accounts: where the embedded database, its lock file and the generated auth secret live. */
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  /** Accounts: signs sessions and tokens; required with DATABASE_URL (checked at start), generated otherwise. */
  BETTER_AUTH_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  /** Email delivery (smtp:// or smtps://); unset → emails stay in the outbox, visible to owners in the app. */
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  /** Sender address of every email, e.g. "LinkLens <alerts@example.com>". */
  MAIL_FROM: optionalString,
  /** Not in the spec: the first retry delay of an email the mail server refused, seconds; it doubles per attempt (capped at 1 h). */
  MAIL_RETRY_BASE_SECONDS: positiveInt(30),
  /**
   * Webhooks (webhooks.md): the first retry delay of a failed delivery, seconds; the next ones are 5, 30,
   * 120, 480 and 1440 times it (about 1 min, 5 min, 30 min, 2 h, 8 h, then every 24 h). Fractions are
   * allowed so tests can run a whole schedule in seconds.
   */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().max(86_400).default(60),
  /** Evidence (evidence-and-reports.md): days a record is kept; older ones are deleted by the scheduler's tick. */
  EVIDENCE_RETENTION_DAYS: positiveInt(400),
  /** Accounts: sign-in, sign-up, magic-link and reset attempts per 15 minutes per email address. */
  AUTH_RATE_LIMIT_PER_15_MIN: positiveInt(10),
  /** Accounts: the same attempts per 15 minutes per client IP (a team behind one address signs up together). */
  AUTH_IP_RATE_LIMIT_PER_15_MIN: positiveInt(100),
  /** Signed-in audits one organization may run per UTC day (docs/spec/account-api.md); past it 429. */
  ORG_AUDITS_PER_DAY: positiveInt(500),
  /**
   * google-view.md §2: a monitor's Googlebot render runs at most once per this many hours, besides its
   * first check, checks that would change a state or verdict, "Check now" and evidence captures.
   */
  GOOGLE_VIEW_INTERVAL_HOURS: positiveInt(24),
  /** Consecutive checks that must see a tracked link missing or broken before its state says so. */
  MONITOR_CONFIRM_CHECKS: positiveInt(2),
  /**
   * Monitor checks one instance runs at once; unset → derived from the render slots (monitorConcurrency in
   * lib/monitor/schedule.ts: each check holds a render slot only while its page renders).
   */
  MONITOR_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
  /** The shortest interval a monitor may have; intervals below it are refused (one of 60, 360, 720, 1440, 10080). */
  MONITOR_MIN_INTERVAL_MINUTES: positiveInt(60),
  /** Consecutive page errors before a `page_unreachable` alert. */
  MONITOR_PAGE_ERROR_ALERT_AFTER: positiveInt(3),
  /** Not in the spec: how soon the confirming check runs after a first miss (the spec asks within 15 minutes). */
  MONITOR_CONFIRM_DELAY_MINUTES: z.coerce.number().int().min(1).max(15).default(10),
  /**
   * Not in the spec: how often each instance looks for due monitors, digests and reminders, seconds. A due
   * check waits at most this long to be dispatched (then for a free worker), so it is part of the "within
   * a minute" of fair scheduling (lib/monitor/due.ts).
   */
  MONITOR_POLL_SECONDS: positiveInt(10),
  /**
   * Not in the spec: how long a scheduled check may run before its job expires and another worker retries
   * it (a killed instance's checks come back after this); also how long a check holds its monitor.
   */
  MONITOR_JOB_EXPIRE_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  /** Not in the spec: `off` keeps this instance from running scheduled checks and digests (a web-only instance). */
  MONITOR_SCHEDULER: onOff,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Where `npm start` listens. */
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOSTNAME: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
});

export type Config = z.infer<typeof configSchema>;

/** Parses an environment; throws one Error that names every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`Invalid LinkLens configuration. ${problems.join("; ")}`);
}

/**
 * The origin of the address the server listens on, for absolute URLs when neither SITE_URL nor a sane
 * Host header is available. A wildcard bind (0.0.0.0, ::) is reached as localhost.
 */
export function listenOrigin(config: Pick<Config, "PORT" | "HOSTNAME">): string {
  const wildcard = config.HOSTNAME === "0.0.0.0" || config.HOSTNAME === "::";
  const host = wildcard ? "localhost" : config.HOSTNAME.includes(":") ? `[${config.HOSTNAME}]` : config.HOSTNAME;
  return `http://${host}:${config.PORT}`;
}

/**
 * LOG_LEVEL for the logger, which is created before the server parses the whole configuration: a bad
 * value falls back to info here and stops the server at start in parseConfig, like every other variable.
 */
export function logLevel(env: Record<string, string | undefined> = process.env): Config["LOG_LEVEL"] {
  const parsed = configSchema.shape.LOG_LEVEL.safeParse(env.LOG_LEVEL);
  return parsed.success ? parsed.data : "info";
}

let cached: Config | undefined;

/** The process configuration, parsed on first use and then shared. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
