CREATE TABLE "share" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"title" text NOT NULL,
	"scope" text NOT NULL,
	"tag" text,
	"monitor_id" text,
	"audit_id" text,
	"token_hash" text NOT NULL,
	"created_by_id" text,
	"created_by_email" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "retired_link_span" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"tracked_link_id" text NOT NULL,
	"state" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "share" ADD CONSTRAINT "share_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share" ADD CONSTRAINT "share_monitor_id_monitor_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share" ADD CONSTRAINT "share_audit_id_audit_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audit"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retired_link_span" ADD CONSTRAINT "retired_link_span_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "share_token_hash_uq" ON "share" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "share_org_created_idx" ON "share" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "retired_link_span_org_ended_idx" ON "retired_link_span" USING btree ("organization_id","ended_at");--> statement-breakpoint
CREATE INDEX "link_transition_org_created_idx" ON "link_transition" USING btree ("organization_id","created_at","from_state","to_state");