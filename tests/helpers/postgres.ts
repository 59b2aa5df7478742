// The throw-away PostgreSQL lives in scripts/lib/ (the monitor benchmark starts one too; scripts never
// import tests). Kept as tests' entry point so suites keep their import.
export * from "../../scripts/lib/postgres";
