import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
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
