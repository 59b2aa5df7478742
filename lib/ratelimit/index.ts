/**
 * Rate limits of the analyzer: per-IP sliding window, monthly URL budget, client IP and bot check.
 * Upstash Redis when configured (shared by all instances), in-process otherwise or while Redis is down.
 */
export { botProtectionEnabled, isAutomatedUserAgent } from "./bot";
export { addressKey, clientKeyFor, UNKNOWN_CLIENT_KEY, type ClientKeyOptions } from "./client-ip";
export { rateLimitHeaders } from "./headers";
export {
  checkRequestLimit,
  consumeUrlBudget,
  createLimiter,
  getLimiter,
  peekRequestLimit,
  setLimiter,
  type Limiter,
  type LimiterConfig,
  type LimiterDeps,
} from "./limiter";
export { MemoryStore } from "./memory-store";
export {
  budgetPolicy,
  ipPolicy,
  policiesFor,
  type MonthlyBudgetPolicy,
  type Policies,
  type WindowPolicy,
} from "./policies";
export { createUpstashRedis, UpstashStore, type UpstashRedis } from "./upstash-store";
export type { Clock, LimitLog, LimitResult, LimitStore } from "./types";
