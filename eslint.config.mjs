import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Layer boundaries (docs/architecture.md), enforced with no-restricted-imports so a wrong arrow is a
 * lint error. A regex matches both the "@/lib/x" alias and a relative "../x" / "../../lib/x" import.
 * In flat config a later block replaces an earlier block's options for the same rule, so every file
 * gets exactly one block (the first matching entry of LAYERS) with its complete list.
 */
const to = (dir) => `^(@/|(\\.\\./)+)${dir}(/|$)`;
const toLib = (dir) => `^(@/lib/|(\\.\\./)+(lib/)?)${dir}(/|$|\\.ts$)`;
/** lib/analyzer/<anything but index>: the analyzer's internals. */
const ANALYZER_INTERNALS = "^(@/lib/|(\\.\\./)+(lib/)?)analyzer/(?!index(\\.ts)?$)";

const rule = (regex, message) => ({ regex, message: message.includes("docs/architecture.md") ? message : `${message.replace(/\.$/, "")} (docs/architecture.md).` });
const FRAMEWORK = [
  rule("^next($|/)", "Only app/, components/ and server/ may import Next.js (docs/architecture.md)."),
  rule("^react($|-dom|/)", "Only app/ and components/ may import React (docs/architecture.md)."),
];
const NO_UPWARD = [
  rule(to("app"), "Nothing imports app/: routes are leaves (docs/architecture.md)."),
  rule(to("components"), "lib/ never imports components/ (docs/architecture.md)."),
  rule(to("server"), "Nothing imports server/: it is the process, not a library (docs/architecture.md)."),
];
const NO_ANALYZER_INTERNALS = rule(ANALYZER_INTERNALS, "Call the analyzer's front door, lib/analyzer/index.ts, not its internals (docs/architecture.md).");
const NO_API = rule(toLib("api"), "lib/api is the HTTP layer above this one; import lib/errors.ts for ApiError (docs/architecture.md).");
const NO_ACCOUNT = ["db", "auth", "account", "monitor", "alerts", "mail", "mcp"].map((dir) => rule(toLib(dir), `lib/${dir} sits above the analyzer; the analyzer and the network guard never import it (docs/architecture.md).`));

/** First match wins: more specific globs first. */
const LAYERS = [
  { files: ["lib/errors.ts", "lib/limits.ts", "lib/link-status.ts", "lib/timeout.ts"], patterns: [rule(".", "This module imports nothing, so every layer (and browser code) may import it.")] },
  { files: ["lib/config.ts"], patterns: [rule("^(@/|\\.)", "lib/config.ts imports only zod, so every layer may import it."), ...FRAMEWORK] },
  {
    files: ["lib/net/**"],
    patterns: [...FRAMEWORK, ...NO_UPWARD, NO_API, rule(toLib("analyzer"), "lib/net is below the analyzer and never imports it."), rule(toLib("ratelimit"), "lib/net never imports lib/ratelimit."), ...NO_ACCOUNT],
  },
  { files: ["lib/analyzer/**"], patterns: [...FRAMEWORK, ...NO_UPWARD, NO_API, rule(toLib("ratelimit"), "lib/analyzer never imports lib/ratelimit: limits are the API's business."), ...NO_ACCOUNT] },
  { files: ["lib/ratelimit/**", "lib/log.ts", "lib/shutdown.ts"], patterns: [...FRAMEWORK, ...NO_UPWARD, NO_API, rule(toLib("analyzer"), "This module is below the analyzer."), ...NO_ACCOUNT] },
  { files: ["lib/api/**"], patterns: [...FRAMEWORK, ...NO_UPWARD, NO_ANALYZER_INTERNALS, rule(toLib("net"), "lib/api reaches the network only through the analyzer's front door.")] },
  { files: ["lib/db/**", "lib/auth/**", "lib/account/**", "lib/monitor/**", "lib/alerts/**", "lib/mail/**", "lib/mcp/**"], patterns: [...NO_UPWARD, NO_ANALYZER_INTERNALS, rule(toLib("net"), "Reach the network through the analyzer's front door.")] },
  { files: ["lib/**"], patterns: [...FRAMEWORK, ...NO_UPWARD, NO_ANALYZER_INTERNALS] },
  { files: ["app/**"], patterns: [rule(to("server"), NO_UPWARD[2].message), NO_ANALYZER_INTERNALS, rule(toLib("net"), "Routes reach the network only through lib/api and the analyzer's front door.")] },
  { files: ["components/**"], patterns: [rule(to("server"), NO_UPWARD[2].message), rule(to("app"), NO_UPWARD[0].message), NO_ANALYZER_INTERNALS, rule(toLib("net"), "Components never import the network guard.")] },
  { files: ["server/**"], patterns: [rule(to("app"), NO_UPWARD[0].message), rule(to("components"), "server/ never imports components/."), NO_ANALYZER_INTERNALS] },
  { files: ["scripts/**"], patterns: [rule("^(@/|(\\.\\./)+)tests(/|$)", "Scripts never import tests: shared harness code lives in scripts/lib/ (docs/architecture.md).")] },
];

const claimed = [];
const boundaries = LAYERS.map(({ files, patterns }) => {
  const block = { files, ignores: [...claimed], rules: { "no-restricted-imports": ["error", { patterns }] } };
  claimed.push(...files);
  return block;
});

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  ...boundaries,
  {
    // Account routes: every export comes from accountRoute(), so no handler can skip the guard's checks.
    files: ["app/api/account/**/route.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "ExportNamedDeclaration > FunctionDeclaration", message: "Account routes export only what accountRoute() returns (lib/api/account-route.ts)." },
        { selector: "ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[init.callee.name!='accountRoute']", message: "Account routes export only what accountRoute() returns (lib/api/account-route.ts)." },
        { selector: "ExportDefaultDeclaration", message: "Account routes export only what accountRoute() returns (lib/api/account-route.ts)." },
      ],
    },
  },
  { ignores: [".next/**", "dist/**", "node_modules/**", "next-env.d.ts", "reports/**", "test-results/**", "playwright-report/**", "data/**"] },
];

export default config;
