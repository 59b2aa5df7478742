import pino from "pino";
import { logLevel } from "./config";
import { redactSecretPaths } from "./secret-paths";

/**
 * Structured JSON logs on stdout. Never log pasted HTML, request bodies or secrets: log sizes and counts.
 * Every line passes redactSecretPaths on its way out, so a path or URL that holds a credential (a report
 * link's token, a reset link's) is never written, whichever field or error message carries it.
 */
/**
 * Written without blocking the thread that logs. pino's default stdout is synchronous, and when stdout
 * is a pipe whose reader falls behind (a log shipper, a supervisor, a benchmark harness) every write that
 * finds it full sleeps the event loop 100 ms before retrying (sonic-boom's EAGAIN wait): under load the
 * request thread stalled behind its own log lines (health p99 60 → 200 ms with six pasting clients). Lines
 * wait in memory instead, up to LOG_BUFFER_BYTES; past that the newest are dropped rather than blocking or
 * growing without end. What is still buffered is written out when the process exits: pino registers every
 * asynchronous destination it builds for a synchronous flush at exit (its on-exit-leak-free hook).
 */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
const destination = pino.destination({ dest: 1, sync: false, maxLength: LOG_BUFFER_BYTES });

export const log = pino(
  {
    level: logLevel(),
    base: { service: "linklens" },
    redact: { paths: ["html", "body", "headers.authorization", "token"], remove: true },
    hooks: { streamWrite: redactSecretPaths },
  },
  destination,
);
