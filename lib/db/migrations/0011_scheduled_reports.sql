CREATE TABLE "email_attachment" (
	"id" text PRIMARY KEY NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_recipient" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"share_id" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirm_token_hash" text NOT NULL,
	"confirm_expires_at" timestamp (3) with time zone NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"unsubscribed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_schedule" (
	"share_id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"cadence" text NOT NULL,
	"weekday" integer,
	"day_of_month" integer,
	"hour_utc" integer NOT NULL,
	"next_send_at" timestamp (3) with time zone NOT NULL,
	"last_sent_at" timestamp (3) with time zone,
	"claimed_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachment_id" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "about" text;--> statement-breakpoint
ALTER TABLE "share" ADD COLUMN "report_link_hash" text;--> statement-breakpoint
ALTER TABLE "report_recipient" ADD CONSTRAINT "report_recipient_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_recipient" ADD CONSTRAINT "report_recipient_share_id_report_schedule_share_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."report_schedule"("share_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedule" ADD CONSTRAINT "report_schedule_share_id_share_id_fk" FOREIGN KEY ("share_id") REFERENCES "public"."share"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedule" ADD CONSTRAINT "report_schedule_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_recipient_share_email_uq" ON "report_recipient" USING btree ("share_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "report_recipient_confirm_token_uq" ON "report_recipient" USING btree ("confirm_token_hash");--> statement-breakpoint
CREATE INDEX "report_schedule_due_idx" ON "report_schedule" USING btree ("next_send_at");--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_attachment_id_email_attachment_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."email_attachment"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_outbox_about_idx" ON "email_outbox" USING btree ("about");--> statement-breakpoint
CREATE UNIQUE INDEX "share_report_link_hash_uq" ON "share" USING btree ("report_link_hash");