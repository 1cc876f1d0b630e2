-- Who created, revoked and rotated tokens (the operator API's token, or the CLI), and when.
CREATE TABLE "admin_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_token_id" uuid,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"account" text NOT NULL,
	"token_id" uuid NOT NULL,
	"details" jsonb
);
