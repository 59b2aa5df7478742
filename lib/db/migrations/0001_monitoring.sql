CREATE TABLE "domain_group" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"domains" text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domain_group_site" (
	"organization_id" text NOT NULL,
	"site" text NOT NULL,
	"group_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "domain_group_site_organization_id_site_pk" PRIMARY KEY("organization_id","site")
);
--> statement-breakpoint
CREATE TABLE "audit" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"created_by_id" text,
	"created_by_email" text NOT NULL,
	"mode" text NOT NULL,
	"requested_url" text NOT NULL,
	"url" text NOT NULL,
	"domain" text NOT NULL,
	"title" text,
	"stats" jsonb NOT NULL,
	"snapshot_gzip" "bytea" NOT NULL,
	"input_html_gzip" "bytea",
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_link" (
	"audit_id" text NOT NULL,
	"position" integer NOT NULL,
	"href" text NOT NULL,
	"link_type" text NOT NULL,
	"anchor_text" text,
	"is_nofollow" boolean NOT NULL,
	"is_sponsored" boolean NOT NULL,
	"is_ugc" boolean NOT NULL,
	"is_image" boolean NOT NULL,
	"http_status" integer,
	"matched_group_name" text,
	CONSTRAINT "audit_link_audit_id_position_pk" PRIMARY KEY("audit_id","position")
);
--> statement-breakpoint
CREATE TABLE "organization_daily_usage" (
	"organization_id" text NOT NULL,
	"day" date NOT NULL,
	"audits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "organization_daily_usage_organization_id_day_pk" PRIMARY KEY("organization_id","day")
);
--> statement-breakpoint
CREATE TABLE "link_observation" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"check_id" text NOT NULL,
	"tracked_link_id" text NOT NULL,
	"observed" text NOT NULL,
	"link" jsonb,
	"state_before" text NOT NULL,
	"state_after" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "link_transition" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"tracked_link_id" text NOT NULL,
	"monitor_id" text NOT NULL,
	"check_id" text,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"url" text NOT NULL,
	"interval_minutes" integer NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_checked_at" timestamp (3) with time zone,
	"next_check_at" timestamp (3) with time zone NOT NULL,
	"consecutive_page_errors" integer DEFAULT 0 NOT NULL,
	"page_http_status" integer,
	"page_noindex" boolean,
	"page_canonical_url" text,
	"page_title" text,
	"checking_until" timestamp (3) with time zone,
	"created_by_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitor_check" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"monitor_id" text NOT NULL,
	"trigger" text NOT NULL,
	"due_at" timestamp (3) with time zone,
	"started_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone NOT NULL,
	"outcome" text NOT NULL,
	"page_status" integer,
	"error_code" text,
	"links_found" integer,
	"noindex" boolean,
	"canonical_url" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracked_link" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"monitor_id" text NOT NULL,
	"target" text NOT NULL,
	"match" text NOT NULL,
	"expected_anchor" text,
	"expected_rel" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"pending_state" text,
	"pending_count" integer DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp (3) with time zone,
	"last_seen_at" timestamp (3) with time zone,
	"current" jsonb,
	"notes" text,
	"cost" double precision,
	"expires_on" date,
	"source" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_delivery" (
	"event_id" text NOT NULL,
	"user_id" text NOT NULL,
	"outbox_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_delivery_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "alert_event" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"type" text NOT NULL,
	"monitor_id" text NOT NULL,
	"tracked_link_id" text,
	"check_id" text,
	"before" jsonb,
	"after" jsonb,
	"dedupe_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digest_run" (
	"user_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"period" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digest_run_user_id_organization_id_period_pk" PRIMARY KEY("user_id","organization_id","period")
);
--> statement-breakpoint
CREATE TABLE "monitor_mute" (
	"user_id" text NOT NULL,
	"monitor_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_mute_user_id_monitor_id_pk" PRIMARY KEY("user_id","monitor_id")
);
--> statement-breakpoint
CREATE TABLE "notification_preference" (
	"user_id" text NOT NULL,
	"organization_id" text NOT NULL,
	"email" text NOT NULL,
	"types" text[] NOT NULL,
	"digest_hour_utc" integer NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preference_user_id_organization_id_pk" PRIMARY KEY("user_id","organization_id")
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "recipient_user_id" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "domain_group" ADD CONSTRAINT "domain_group_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_group_site" ADD CONSTRAINT "domain_group_site_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_group_site" ADD CONSTRAINT "domain_group_site_group_id_domain_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."domain_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit" ADD CONSTRAINT "audit_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_link" ADD CONSTRAINT "audit_link_audit_id_audit_id_fk" FOREIGN KEY ("audit_id") REFERENCES "public"."audit"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_daily_usage" ADD CONSTRAINT "organization_daily_usage_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_observation" ADD CONSTRAINT "link_observation_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_observation" ADD CONSTRAINT "link_observation_check_id_monitor_check_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."monitor_check"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_observation" ADD CONSTRAINT "link_observation_tracked_link_id_tracked_link_id_fk" FOREIGN KEY ("tracked_link_id") REFERENCES "public"."tracked_link"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_transition" ADD CONSTRAINT "link_transition_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_transition" ADD CONSTRAINT "link_transition_tracked_link_id_tracked_link_id_fk" FOREIGN KEY ("tracked_link_id") REFERENCES "public"."tracked_link"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_transition" ADD CONSTRAINT "link_transition_monitor_id_monitor_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_transition" ADD CONSTRAINT "link_transition_check_id_monitor_check_id_fk" FOREIGN KEY ("check_id") REFERENCES "public"."monitor_check"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor" ADD CONSTRAINT "monitor_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_check" ADD CONSTRAINT "monitor_check_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_check" ADD CONSTRAINT "monitor_check_monitor_id_monitor_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracked_link" ADD CONSTRAINT "tracked_link_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracked_link" ADD CONSTRAINT "tracked_link_monitor_id_monitor_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_delivery" ADD CONSTRAINT "alert_delivery_event_id_alert_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."alert_event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_delivery" ADD CONSTRAINT "alert_delivery_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_event" ADD CONSTRAINT "alert_event_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_event" ADD CONSTRAINT "alert_event_monitor_id_monitor_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_event" ADD CONSTRAINT "alert_event_tracked_link_id_tracked_link_id_fk" FOREIGN KEY ("tracked_link_id") REFERENCES "public"."tracked_link"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_run" ADD CONSTRAINT "digest_run_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_run" ADD CONSTRAINT "digest_run_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_mute" ADD CONSTRAINT "monitor_mute_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_mute" ADD CONSTRAINT "monitor_mute_monitor_id_monitor_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitor"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preference" ADD CONSTRAINT "notification_preference_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preference" ADD CONSTRAINT "notification_preference_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_group_org_name_uq" ON "domain_group" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE INDEX "domain_group_org_created_idx" ON "domain_group" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "domain_group_site_group_idx" ON "domain_group_site" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "audit_org_created_idx" ON "audit" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_org_url_idx" ON "audit" USING btree ("organization_id","url");--> statement-breakpoint
CREATE INDEX "link_observation_link_idx" ON "link_observation" USING btree ("tracked_link_id","created_at","id");--> statement-breakpoint
CREATE INDEX "link_observation_check_idx" ON "link_observation" USING btree ("check_id");--> statement-breakpoint
CREATE INDEX "link_transition_link_idx" ON "link_transition" USING btree ("tracked_link_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_org_url_uq" ON "monitor" USING btree ("organization_id","url");--> statement-breakpoint
CREATE INDEX "monitor_org_created_idx" ON "monitor" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "monitor_due_idx" ON "monitor" USING btree ("next_check_at");--> statement-breakpoint
CREATE INDEX "monitor_check_monitor_idx" ON "monitor_check" USING btree ("monitor_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "monitor_check_due_uq" ON "monitor_check" USING btree ("monitor_id","due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tracked_link_monitor_target_uq" ON "tracked_link" USING btree ("monitor_id","target");--> statement-breakpoint
CREATE INDEX "tracked_link_org_created_idx" ON "tracked_link" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tracked_link_org_state_idx" ON "tracked_link" USING btree ("organization_id","state");--> statement-breakpoint
CREATE INDEX "tracked_link_expires_idx" ON "tracked_link" USING btree ("expires_on");--> statement-breakpoint
CREATE INDEX "alert_event_org_created_idx" ON "alert_event" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "alert_event_monitor_idx" ON "alert_event" USING btree ("monitor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_event_dedupe_uq" ON "alert_event" USING btree ("tracked_link_id","type","dedupe_key");--> statement-breakpoint
CREATE INDEX "monitor_mute_monitor_idx" ON "monitor_mute" USING btree ("monitor_id");