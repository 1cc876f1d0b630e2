CREATE TABLE "reading_days" (
	"date" date PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Days loaded before this table existed: changed as of the migration.
INSERT INTO "reading_days" ("date", "changed_at") SELECT DISTINCT "date", now() FROM "readings";
