ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "replaced_by" uuid;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_replaced_by_api_keys_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;