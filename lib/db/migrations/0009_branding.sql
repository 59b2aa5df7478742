CREATE TABLE "organization_branding" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"display_name" text,
	"accent_color" text,
	"footer" text,
	"logo_png" "bytea",
	"logo_width" integer,
	"logo_height" integer,
	"logo_bytes" integer,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_branding" ADD CONSTRAINT "organization_branding_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;