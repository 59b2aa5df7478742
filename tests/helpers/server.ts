// The production-server harness lives in scripts/lib/ (scripts never import tests; tests may import
// scripts/lib). Kept as tests' entry point so suites written before the move keep their import.
export * from "../../scripts/lib/server-process";
