CREATE TABLE "ecosystems" (
	"municipio_id" text PRIMARY KEY NOT NULL,
	"vegetation_type" text NOT NULL,
	"fuel_model" smallint,
	"fuel_load_t_ha" double precision NOT NULL,
	"forest_cover_pct" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ecosystems_vegetation_type_check" CHECK ("ecosystems"."vegetation_type" IN ('conifer_forest', 'broadleaf_forest', 'mixed_forest', 'dehesa', 'shrubland', 'grassland', 'agricultural', 'wetland', 'urban', 'bare_rock', 'water')),
	CONSTRAINT "ecosystems_fuel_model_check" CHECK ("ecosystems"."fuel_model" BETWEEN 1 AND 13),
	CONSTRAINT "ecosystems_fuel_load_check" CHECK ("ecosystems"."fuel_load_t_ha" >= 0 AND "ecosystems"."fuel_load_t_ha" <= 300),
	CONSTRAINT "ecosystems_forest_cover_check" CHECK ("ecosystems"."forest_cover_pct" >= 0 AND "ecosystems"."forest_cover_pct" <= 100)
);
--> statement-breakpoint
ALTER TABLE "ecosystems" ADD CONSTRAINT "ecosystems_municipio_id_municipalities_ine_code_fk" FOREIGN KEY ("municipio_id") REFERENCES "public"."municipalities"("ine_code") ON DELETE no action ON UPDATE no action;