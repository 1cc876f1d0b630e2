ALTER TABLE "signing_requests" ADD COLUMN "fields" jsonb;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "field_values" jsonb;