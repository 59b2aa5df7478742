import pino from "pino";
import { logLevel } from "./config";
import { redactSecretPaths } from "./secret-paths";

/**
 * Structured JSON logs on stdout. Never log pasted HTML, request bodies or secrets: log sizes and counts.
 * Every line passes redactSecretPaths on its way out, so a path or URL that holds a credential (a report
 * link's token, a reset link's) is never written, whichever field or error message carries it.
 */
export const log = pino({
  level: logLevel(),
  base: { service: "linklens" },
  redact: { paths: ["html", "body", "headers.authorization", "token"], remove: true },
  hooks: { streamWrite: redactSecretPaths },
});
