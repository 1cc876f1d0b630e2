CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"municipio_id" text NOT NULL,
	"periodo" text NOT NULL,
	"format" text NOT NULL,
	"lang" text NOT NULL,
	"source" text NOT NULL,
	"provisional" boolean NOT NULL,
	"status" text NOT NULL,
	"size_bytes" integer,
	"sha256" text,
	"file_key" text,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_account_created_idx" ON "reports" USING btree ("account_id","created_at");