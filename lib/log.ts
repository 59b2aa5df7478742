import pino from "pino";

/**
 * Structured JSON logs on stdout. Never log pasted HTML, request bodies or secrets: log sizes and counts.
 */
export const log = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: { service: "linklens" },
  redact: { paths: ["html", "body", "headers.authorization", "token"], remove: true },
});
