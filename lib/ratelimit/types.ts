/** What a limit check answers; the route turns it into headers and, when not allowed, a 429. */
export type LimitResult = {
  /** Whether this request may proceed (for a peek: whether one would be allowed now). */
  allowed: boolean;
  /** Size of the limit that answered (requests per window, or the monthly budget). */
  limit: number;
  /** Requests left after this one; 0 when refused. */
  remaining: number;
  /** Unix time in whole seconds at which the limit next has room (see `resetFor*` in time.ts). */
  reset: number;
  /** Which limit answered: the per-IP window or the monthly URL budget. */
  reason: "ip" | "budget";
};

/**
 * The one storage interface: an in-process store and an Upstash store implement it, and the resilient
 * wrapper that switches between them implements it too, so the route never knows which answered.
 */
export interface LimitStore {
  /** Consumes one request from `clientKey`'s per-IP window (refused requests consume nothing). */
  checkRequest(clientKey: string): Promise<LimitResult>;
  /** Reports `clientKey`'s per-IP window without consuming. */
  peekRequest(clientKey: string): Promise<LimitResult>;
  /** Consumes one unit of the current month's URL budget. */
  consumeBudget(): Promise<LimitResult>;
}

/**
 * Where the rate limiter reports outages and recoveries. Shaped so a pino logger adapts in one line:
 * `(level, msg, fields) => logger[level](fields ?? {}, msg)`.
 */
export type LimitLog = (level: "warn" | "info", message: string, fields?: Record<string, unknown>) => void;

/** Milliseconds since the epoch; injectable so tests can move time without sleeping. */
export type Clock = () => number;
