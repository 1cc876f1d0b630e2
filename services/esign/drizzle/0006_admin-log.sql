CREATE TABLE "admin_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"key_id" uuid NOT NULL,
	"action" text NOT NULL,
	"tenant" text NOT NULL,
	"count" integer NOT NULL,
	"details" jsonb
);
