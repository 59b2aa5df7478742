import pino from "pino";
import { logLevel } from "./config";

/**
 * Structured JSON logs on stdout. Never log pasted HTML, request bodies or secrets: log sizes and counts.
 */
export const log = pino({
  level: logLevel(),
  base: { service: "linklens" },
  redact: { paths: ["html", "body", "headers.authorization", "token"], remove: true },
});
