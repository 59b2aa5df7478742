import { text, timestamp } from "drizzle-orm/pg-core";
import { organization } from "./organization";

/** Column shapes the product's tables share. */

/** A timestamp with time zone at millisecond precision: list cursors carry JavaScript Dates. */
export const time = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** The owning organization: every row of an organization's data has one, and goes when it goes. */
export const organizationRef = () =>
  text("organization_id")
    .notNull()
    .references(() => organization.id, { onDelete: "cascade" });
