-- Keys over REST: an expiry per key (a rotated key's is the end of its overlap), the key a
-- rotation issued in its place, a tenant's display name, and admin-log entries made by the
-- operator CLI, which acts with no key.
ALTER TABLE "admin_log" ALTER COLUMN "key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "replaced_by" uuid;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "display_name" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_replaced_by_api_keys_id_fk" FOREIGN KEY ("replaced_by") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;