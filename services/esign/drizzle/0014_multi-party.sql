CREATE TABLE "tenant_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"notify_email" text,
	"reminder_every_hours" integer DEFAULT 72 NOT NULL,
	"reminder_max" integer DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachment_key" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "attachment_name" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "signing_order" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "role" text DEFAULT 'signer' NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "copy_token_hash" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "copy_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "decline_reason" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "allow_reassign" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "reassign_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "reassigned_from" text;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "reassigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "sealed_token" "bytea";--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "reminder_every_hours" integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "reminder_max" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "reminders_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "last_reminder_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "next_reminder_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD COLUMN "expiry_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD CONSTRAINT "tenant_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_requests" ADD CONSTRAINT "signing_requests_copy_token_hash_unique" UNIQUE("copy_token_hash");