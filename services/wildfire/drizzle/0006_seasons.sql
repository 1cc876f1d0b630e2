CREATE TABLE "danger_seasons" (
	"community_code" text PRIMARY KEY NOT NULL,
	"name" text,
	"from_day" text,
	"to_day" text,
	"authority" text NOT NULL,
	"source_title" text NOT NULL,
	"source_url" text,
	"measures" jsonb NOT NULL,
	"note" text,
	"origin" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
