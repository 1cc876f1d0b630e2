CREATE TABLE "alert_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"log" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"token_type" text NOT NULL,
	"target" jsonb NOT NULL,
	"municipios" text[] NOT NULL,
	"min_class" text NOT NULL,
	"include_forecast" boolean NOT NULL,
	"webhook_url" text,
	"secret" text,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "raised_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"municipio_id" text NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"danger_class" text NOT NULL,
	"class_rank" integer NOT NULL,
	"payload" jsonb NOT NULL,
	"raised_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_raised_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."raised_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_subscription_id_alert_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."alert_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_subscriptions" ADD CONSTRAINT "alert_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "raised_alerts" ADD CONSTRAINT "raised_alerts_subscription_id_alert_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."alert_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_deliveries_open_idx" ON "alert_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "alert_subscriptions_account_idx" ON "alert_subscriptions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "alert_subscriptions_municipios_idx" ON "alert_subscriptions" USING gin ("municipios");--> statement-breakpoint
CREATE UNIQUE INDEX "raised_alerts_dedupe_idx" ON "raised_alerts" USING btree ("subscription_id","municipio_id","date","danger_class");--> statement-breakpoint
CREATE INDEX "raised_alerts_account_idx" ON "raised_alerts" USING btree ("account_id","raised_at");