CREATE TABLE "report_schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"municipio_id" text NOT NULL,
	"format" text NOT NULL,
	"lang" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "report_schedules_account_municipio_format_lang_key" UNIQUE("account_id","municipio_id","format","lang")
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;