ALTER TABLE "alert_subscriptions" ADD COLUMN "token_id" uuid;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD COLUMN "webhook_disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD COLUMN "webhook_disabled_reason" text;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE set null ON UPDATE no action;