ALTER TABLE "audit_link" ADD COLUMN "in_google_view" boolean;--> statement-breakpoint
ALTER TABLE "monitor" ADD COLUMN "google_view" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "monitor" ADD COLUMN "page_google_view" jsonb;--> statement-breakpoint
ALTER TABLE "monitor" ADD COLUMN "google_view_hrefs" jsonb;--> statement-breakpoint
ALTER TABLE "monitor" ADD COLUMN "google_view_comparison" jsonb;--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "google_screenshot_png" "bytea";--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "google_screenshot_width" integer;--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "google_screenshot_height" integer;--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "google_screenshot_bytes" integer;--> statement-breakpoint
ALTER TABLE "evidence" ADD COLUMN "google_link_box" jsonb;