/** The one Drizzle schema of LinkLens: a file per aggregate. drizzle-kit reads this file. */
export * from "./auth";
export * from "./organization";
export * from "./activity-log";
export * from "./outbox";
export * from "./domain-groups";
export * from "./audits";
export * from "./monitors";
export * from "./alerts";
export * from "./webhooks";
export * from "./shares";
export * from "./reports";
export * from "./history";
export * from "./evidence";
export * from "./branding";
