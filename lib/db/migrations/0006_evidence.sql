CREATE TABLE "evidence" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"monitor_id" text NOT NULL,
	"tracked_link_id" text NOT NULL,
	"check_id" text,
	"captured_at" timestamp (3) with time zone NOT NULL,
	"reason" text NOT NULL,
	"page_url" text NOT NULL,
	"target" text NOT NULL,
	"match" text NOT NULL,
	"final_url" text,
	"http_status" integer,
	"html_sha256" text,
	"html_bytes" integer,
	"html_gzip" "bytea",
	"link" jsonb,
	"verdict" jsonb,
	"screenshot_png" "bytea",
	"screenshot_width" integer,
	"screenshot_height" integer,
	"screenshot_bytes" integer,
	"link_box" jsonb
);
--> statement-breakpoint
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_monitor_id_monitor_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "evidence" ADD CONSTRAINT "evidence_tracked_link_id_tracked_link_id_fk" FOREIGN KEY ("tracked_link_id") REFERENCES "public"."tracked_link"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "evidence_link_captured_idx" ON "evidence" USING btree ("tracked_link_id","captured_at","id");--> statement-breakpoint
CREATE INDEX "evidence_captured_idx" ON "evidence" USING btree ("captured_at");--> statement-breakpoint
CREATE UNIQUE INDEX "evidence_link_check_uq" ON "evidence" USING btree ("tracked_link_id","check_id");