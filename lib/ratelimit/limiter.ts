import { getConfig, type Config } from "@/lib/config";
import { MemoryStore } from "./memory-store";
import { policiesFor, type Policies } from "./policies";
import { ResilientStore } from "./resilient-store";
import { createUpstashRedis, UpstashStore, type UpstashRedis } from "./upstash-store";
import type { Clock, LimitLog, LimitResult, LimitStore } from "./types";

/** The configuration a limiter reads. */
export type LimiterConfig = Pick<
  Config,
  "RATE_LIMIT_PER_MINUTE" | "DEMO_URL_MONTHLY_BUDGET" | "UPSTASH_REDIS_REST_URL" | "UPSTASH_REDIS_REST_TOKEN"
> &
  Partial<Pick<Config, "RATE_LIMIT_STORE_TIMEOUT_MS" | "RATE_LIMIT_STORE_COOLDOWN_MS">>;

/** Replaceable parts of a limiter; every one has a production default. */
export interface LimiterDeps {
  /** Use this Upstash client instead of one built from the config (tests point it at a local bridge). */
  redis?: UpstashRedis;
  /** Override the policies (tests use short windows against real Redis). Default: from the config. */
  policies?: Policies;
  /** Clock of the in-process store and the budget month. Default Date.now. */
  now?: Clock;
  /** Outage / recovery reports. Default: console.warn / console.info. */
  log?: LimitLog;
  /** Per-call limit on waiting for Upstash before answering in-process. Default RATE_LIMIT_STORE_TIMEOUT_MS (1000 ms). */
  timeoutMs?: number;
  /** After a failed call, how long to stay in-process before asking Upstash again. Default RATE_LIMIT_STORE_COOLDOWN_MS (5000 ms). */
  cooldownMs?: number;
}

/** A limiter: the store interface plus which backend it uses. */
export interface Limiter extends LimitStore {
  /** `memory`: in-process only (one instance). `upstash`: shared, with in-process fallback. */
  readonly backend: "memory" | "upstash";
  /** True while an Upstash limiter is answering from its in-process fallback. */
  readonly degraded: boolean;
}

const defaultLog: LimitLog = (level, message, fields) => {
  if (level === "warn") console.warn(message, fields ?? {});
  else console.info(message, fields ?? {});
};

/**
 * Builds a limiter. Upstash is used when `deps.redis` is given or both `UPSTASH_REDIS_REST_URL` and
 * `UPSTASH_REDIS_REST_TOKEN` are set; otherwise the in-process store. Nothing connects at construction,
 * so building one without those variables (e.g. during `next build`) is silent.
 */
export function createLimiter(config: LimiterConfig, deps: LimiterDeps = {}): Limiter {
  const policies = deps.policies ?? policiesFor(config);
  const now = deps.now ?? Date.now;
  const log = deps.log ?? defaultLog;
  const timeoutMs = deps.timeoutMs ?? config.RATE_LIMIT_STORE_TIMEOUT_MS ?? 1000;
  const memory = new MemoryStore(policies, now);

  const url = config.UPSTASH_REDIS_REST_URL;
  const token = config.UPSTASH_REDIS_REST_TOKEN;
  if (!deps.redis && (!url || !token)) {
    if (url || token) {
      // Half a configuration is almost always a deployment mistake; say so instead of silently going local.
      log(
        "warn",
        "Rate-limit store: only one of UPSTASH_REDIS_REST_URL / UPSTASH_REDIS_REST_TOKEN is set; using in-process limits.",
      );
    }
    return memoryLimiter(memory);
  }

  const redis = deps.redis ?? createUpstashRedis({ url: url ?? "", token: token ?? "", timeoutMs });
  const resilient = new ResilientStore(new UpstashStore(redis, policies, now), memory, {
    timeoutMs,
    cooldownMs: deps.cooldownMs ?? config.RATE_LIMIT_STORE_COOLDOWN_MS ?? 5000,
    log,
    now,
  });
  return {
    backend: "upstash",
    get degraded() {
      return resilient.degraded;
    },
    checkRequest: (clientKey) => resilient.checkRequest(clientKey),
    peekRequest: (clientKey) => resilient.peekRequest(clientKey),
    consumeBudget: () => resilient.consumeBudget(),
  };
}

function memoryLimiter(memory: MemoryStore): Limiter {
  return {
    backend: "memory",
    degraded: false,
    checkRequest: (clientKey) => memory.checkRequest(clientKey),
    peekRequest: (clientKey) => memory.peekRequest(clientKey),
    consumeBudget: () => memory.consumeBudget(),
  };
}

// One limiter per process, built on first use from getConfig(): the Ratelimit instance inside it is created
// once, not per request, and importing this module reads no environment.
let defaultLimiter: Limiter | undefined;

/** The process-wide limiter (built lazily from `getConfig()`). */
export function getLimiter(): Limiter {
  defaultLimiter ??= createLimiter(getConfig());
  return defaultLimiter;
}

/** Replaces the process-wide limiter (tests); `undefined` makes the next call rebuild it from the config. */
export function setLimiter(limiter: Limiter | undefined): void {
  defaultLimiter = limiter;
}

/** Consumes one request from the client's per-IP window. Every POST to the analyzer counts, even invalid ones. */
export function checkRequestLimit(clientKey: string): Promise<LimitResult> {
  return getLimiter().checkRequest(clientKey);
}

/** The client's per-IP window without consuming (for answers that must not spend, such as 405). */
export function peekRequestLimit(clientKey: string): Promise<LimitResult> {
  return getLimiter().peekRequest(clientKey);
}

/**
 * Consumes one unit of this month's URL-render budget (accepted URL-mode requests only). When spent:
 * allowed false, limit = budget size, remaining 0, reset = start of next month UTC.
 */
export function consumeUrlBudget(): Promise<LimitResult> {
  return getLimiter().consumeBudget();
}
