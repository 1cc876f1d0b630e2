CREATE TABLE "decisions" (
	"decision_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"scope_level" text NOT NULL,
	"scope_code" text NOT NULL,
	"date_from" date NOT NULL,
	"date_to" date,
	"measures" jsonb NOT NULL,
	"legal_basis" text,
	"source_url" text,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "decisions_scope_idx" ON "decisions" USING btree ("scope_code","date_from");