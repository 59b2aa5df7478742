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

const rule = (regex, message) => ({
  regex,
  message: message.includes("docs/architecture.md") ? message : `${message.replace(/\.$/, "")} (docs/architecture.md).`,
});
const FRAMEWORK = [
  rule("^next($|/)", "Only app/, components/ and server/ may import Next.js (docs/architecture.md)."),
  rule("^react($|-dom|/)", "Only app/ and components/ may import React (docs/architecture.md)."),
];
const NO_UPWARD = [
  rule(to("app"), "Nothing imports app/: routes are leaves (docs/architecture.md)."),
  rule(to("components"), "lib/ never imports components/ (docs/architecture.md)."),
  rule(to("server"), "Nothing imports server/: it is the process, not a library (docs/architecture.md)."),
];
const NO_ANALYZER_INTERNALS = rule(
  ANALYZER_INTERNALS,
  "Call the analyzer's front door, lib/analyzer/index.ts, not its internals (docs/architecture.md).",
);
const NO_API = rule(
  toLib("api"),
  "lib/api is the HTTP layer above this one; import lib/errors.ts for ApiError (docs/architecture.md).",
);
const NO_ACCOUNT = [
  "http",
  "schemas",
  "verdict",
  "db",
  "auth",
  "branding",
  "webhooks",
  "account",
  "evidence",
  "monitor",
  "alerts",
  "mail",
  "stats",
  "shares",
  "reports",
  "charts",
  "mcp",
].map((dir) =>
  rule(
    toLib(dir),
    `lib/${dir} sits above the analyzer; the analyzer and the network guard never import it (docs/architecture.md).`,
  ),
);

/**
 * The product's floors, bottom to top (docs/architecture.md): a folder imports only folders below it.
 * `account` and `alerts` share a floor and never import each other.
 */
const FLOORS = [
  "http",
  "api",
  "schemas",
  "verdict",
  "charts",
  "db",
  "mail",
  "auth",
  "branding",
  "webhooks",
  ["account", "alerts"],
  "evidence",
  "monitor",
  "stats",
  "shares",
  "reports",
  "mcp",
];
const floorIndex = (dir) => FLOORS.findIndex((floor) => (Array.isArray(floor) ? floor.includes(dir) : floor === dir));
/** The rules of one product folder: nothing above its floor, nothing beside it, no analyzer internals, no network guard. */
function floorRules(dir) {
  const own = floorIndex(dir);
  const banned = FLOORS.flatMap((floor, index) =>
    index > own ? [floor].flat() : index === own ? [floor].flat().filter((other) => other !== dir) : [],
  );
  return banned.map((other) =>
    rule(toLib(other), `lib/${dir} is below lib/${other} on the product's floors and never imports it.`),
  );
}
const NO_REACT = rule("^react($|-dom|/)", "Only app/ and components/ may import React (docs/architecture.md).");
const NO_NEXT = rule(
  "^next($|/)",
  "Only app/, components/, server/ and lib/auth (the pages' guard) may import Next.js (docs/architecture.md).",
);
const BELOW_THE_PRODUCT = [
  rule(toLib("net"), "Reach the network through the analyzer's front door."),
  NO_ANALYZER_INTERNALS,
];
const product = (dir, extra = []) => ({
  files: [`lib/${dir}/**`],
  patterns: [...NO_UPWARD, ...BELOW_THE_PRODUCT, NO_REACT, ...extra, ...floorRules(dir)],
});

const APP_PATTERNS = [
  rule(to("server"), NO_UPWARD[2].message),
  NO_ANALYZER_INTERNALS,
  rule(toLib("net"), "Routes reach the network only through lib/api and the analyzer's front door."),
];

/** First match wins: more specific globs first. */
const LAYERS = [
  {
    files: [
      "lib/errors.ts",
      "lib/limits.ts",
      "lib/link-status.ts",
      "lib/timeout.ts",
      "lib/json-depth.ts",
      "lib/secret-paths.ts",
    ],
    patterns: [rule(".", "This module imports nothing, so every layer (and browser code) may import it.")],
  },
  {
    files: ["lib/config.ts"],
    patterns: [rule("^(@/|\\.)", "lib/config.ts imports only zod, so every layer may import it."), ...FRAMEWORK],
  },
  {
    files: ["lib/net/**"],
    patterns: [
      ...FRAMEWORK,
      ...NO_UPWARD,
      NO_API,
      rule(toLib("analyzer"), "lib/net is below the analyzer and never imports it."),
      rule(toLib("ratelimit"), "lib/net never imports lib/ratelimit."),
      ...NO_ACCOUNT,
    ],
  },
  {
    files: ["lib/analyzer/**"],
    patterns: [
      ...FRAMEWORK,
      ...NO_UPWARD,
      NO_API,
      rule(toLib("ratelimit"), "lib/analyzer never imports lib/ratelimit: limits are the API's business."),
      ...NO_ACCOUNT,
    ],
  },
  {
    files: ["lib/ratelimit/**", "lib/log.ts", "lib/shutdown.ts"],
    patterns: [
      ...FRAMEWORK,
      ...NO_UPWARD,
      NO_API,
      rule(toLib("analyzer"), "This module is below the analyzer."),
      ...NO_ACCOUNT,
    ],
  },
  product("http", [
    NO_NEXT,
    rule(toLib("analyzer"), "lib/http is request and response primitives; it never calls the analyzer."),
  ]),
  product("api", [NO_NEXT]),
  product("schemas", [
    NO_NEXT,
    rule(
      toLib("analyzer"),
      "lib/schemas is zod only (the UI imports it); the analyzer's types come through lib/api/schemas.",
    ),
    rule(toLib("ratelimit"), "lib/schemas is zod only."),
  ]),
  product("verdict", [
    NO_NEXT,
    rule(
      toLib("analyzer"),
      "lib/verdict is pure rules over the account API's shapes (lib/schemas); it never calls the analyzer (docs/architecture.md).",
    ),
  ]),
  product("charts", [
    NO_NEXT,
    rule(
      toLib("analyzer"),
      "lib/charts is chart geometry over the account API's shapes (lib/schemas), browser-safe; it never calls the analyzer (docs/architecture.md).",
    ),
  ]),
  product("db", [NO_NEXT]),
  product("mail", [NO_NEXT]),
  product("auth"),
  product("branding", [NO_NEXT]),
  product("webhooks", [NO_NEXT]),
  product("account", [NO_NEXT]),
  product("alerts", [NO_NEXT]),
  product("evidence", [NO_NEXT]),
  product("monitor", [NO_NEXT]),
  product("stats", [NO_NEXT]),
  product("shares", [NO_NEXT]),
  product("reports", [NO_NEXT]),
  product("mcp", [NO_NEXT]),
  { files: ["lib/**"], patterns: [...FRAMEWORK, ...NO_UPWARD, NO_ANALYZER_INTERNALS] },
  {
    // An account operation is described once, in its catalog entry: its route names the entry and gets the
    // permission, the query, the body and the answer's status from it, so it parses and authorizes nothing.
    files: ["app/api/account/**"],
    patterns: [
      ...APP_PATTERNS,
      ...[
        ["^zod($|/)", "zod"],
        ["^(@/lib/|(\\.\\./)+(lib/)?)schemas/(?!(operations|openapi)(\\.ts)?$)", "lib/schemas/<resource>"],
        [toLib("http/(query|read-body|nul)"), "the query and body parsers"],
        [toLib("auth/(guard|roles|operation-input)"), "the guard and the roles"],
      ].map(([regex, what]) =>
        rule(
          regex,
          `Account routes take schemas, parsing and the permission from their catalog entry (lib/schemas/operations.ts), not from ${what}.`,
        ),
      ),
    ],
  },
  { files: ["app/**"], patterns: APP_PATTERNS },
  {
    files: ["components/**"],
    patterns: [
      rule(to("server"), NO_UPWARD[2].message),
      rule(to("app"), NO_UPWARD[0].message),
      NO_ANALYZER_INTERNALS,
      rule(toLib("net"), "Components never import the network guard."),
      ...[
        "db",
        "mail",
        "auth",
        "webhooks",
        "account",
        "alerts",
        "monitor",
        "stats",
        "shares",
        "reports",
        "mcp",
        "ratelimit",
      ].map((dir) =>
        rule(
          toLib(dir),
          `Components run in the browser: they read the API's shapes from lib/schemas and lib/api/schemas, never lib/${dir}.`,
        ),
      ),
      rule(
        "^(@/lib/|(\\.\\./)+(lib/)?)branding($|/(?!colors(\\.ts)?$))",
        "Components run in the browser: of lib/branding they import only its pure colours (lib/branding/colors.ts).",
      ),
    ],
  },
  {
    files: ["server/**"],
    patterns: [
      rule(to("app"), NO_UPWARD[0].message),
      rule(to("components"), "server/ never imports components/."),
      NO_ANALYZER_INTERNALS,
    ],
  },
  {
    files: ["scripts/**"],
    patterns: [
      rule(
        "^(@/|(\\.\\./)+)tests(/|$)",
        "Scripts never import tests: shared harness code lives in scripts/lib/ (docs/architecture.md).",
      ),
    ],
  },
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
        {
          selector: "ExportNamedDeclaration > FunctionDeclaration",
          message: "Account routes export only what accountRoute() returns (lib/auth/account-route.ts).",
        },
        {
          selector:
            "ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[init.callee.name!='accountRoute']",
          message: "Account routes export only what accountRoute() returns (lib/auth/account-route.ts).",
        },
        {
          selector: "ExportDefaultDeclaration",
          message: "Account routes export only what accountRoute() returns (lib/auth/account-route.ts).",
        },
        {
          selector:
            "CallExpression[callee.name='accountRoute'] > ObjectExpression > Property > ObjectExpression > Property[key.name=/^(permission|body|query|response|status)$/]",
          message:
            "An account route names its catalog entry (operation: OPERATIONS.<id>); the permission, schemas and status are the entry's (lib/schemas/operations.ts).",
        },
      ],
    },
  },
  {
    ignores: [
      ".next/**",
      "dist/**",
      "node_modules/**",
      "next-env.d.ts",
      "reports/**",
      "test-results/**",
      "playwright-report/**",
      "data/**",
    ],
  },
];

export default config;
