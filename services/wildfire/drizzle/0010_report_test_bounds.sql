CREATE TABLE "report_render_slots" (
	"report_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_render_slots_account_idx" ON "report_render_slots" USING btree ("account_id");--> statement-breakpoint
-- A test token's identical pending reports: the newest stays pending, the older ones fail, so the unique index below can be built.
UPDATE "reports" AS r SET "status" = 'failed', "error" = 'superseded by an identical pending test report', "finished_at" = now()
WHERE r."status" = 'pending' AND r."source" = 'synthetic' AND EXISTS (
  SELECT 1 FROM "reports" AS o
  WHERE o."status" = 'pending' AND o."source" = 'synthetic' AND o."account_id" = r."account_id" AND o."municipio_id" = r."municipio_id"
    AND o."periodo" = r."periodo" AND o."format" = r."format" AND o."lang" = r."lang" AND (o."created_at", o."id") > (r."created_at", r."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "reports_test_pending_key" ON "reports" USING btree ("account_id","municipio_id","periodo","format","lang") WHERE "reports"."status" = 'pending' and "reports"."source" = 'synthetic';