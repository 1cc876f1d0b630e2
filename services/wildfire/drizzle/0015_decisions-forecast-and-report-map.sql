ALTER TABLE "decisions" ADD COLUMN "forecast" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "map_municipios" jsonb;