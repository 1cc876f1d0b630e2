CREATE TABLE "tenant_branding" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"display_name" text,
	"accent_color" text,
	"accent_color_used" text,
	"logo_id" text,
	"logo_png" "bytea",
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tenant_branding_logo_id_unique" UNIQUE("logo_id")
);
--> statement-breakpoint
ALTER TABLE "tenant_branding" ADD CONSTRAINT "tenant_branding_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;