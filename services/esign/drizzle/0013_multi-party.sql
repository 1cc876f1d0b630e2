ALTER TABLE "email_outbox" ADD COLUMN "attachment_key" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachment_name" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "signing_order" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "role" text DEFAULT 'signer' NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "copy_token_hash" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "copy_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "decline_reason" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_copy_token_hash_unique" UNIQUE("copy_token_hash");