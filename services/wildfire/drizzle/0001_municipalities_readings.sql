CREATE TABLE "municipalities" (
	"ine_code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"province_code" text NOT NULL,
	"province" text NOT NULL,
	"community_code" text NOT NULL,
	"community" text NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"altitude_m" double precision,
	"population" integer,
	"enriched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seed_state" (
	"name" text PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "readings" (
	"municipio_id" text NOT NULL,
	"date" date NOT NULL,
	"temp" double precision NOT NULL,
	"rh" double precision NOT NULL,
	"ws" double precision NOT NULL,
	"prec" double precision NOT NULL,
	"ffmc" double precision NOT NULL,
	"dmc" double precision NOT NULL,
	"dc" double precision NOT NULL,
	"isi" double precision NOT NULL,
	"bui" double precision NOT NULL,
	"fwi" double precision NOT NULL,
	"dsr" double precision NOT NULL,
	"risk_score" double precision NOT NULL,
	"risk_label" text NOT NULL,
	CONSTRAINT "readings_municipio_id_date_pk" PRIMARY KEY("municipio_id","date")
);
--> statement-breakpoint
ALTER TABLE "readings" ADD CONSTRAINT "readings_municipio_id_municipalities_ine_code_fk" FOREIGN KEY ("municipio_id") REFERENCES "public"."municipalities"("ine_code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "municipalities_province_idx" ON "municipalities" USING btree ("province_code");