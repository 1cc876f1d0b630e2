CREATE TABLE "meter_daily" (
	"tenant" text NOT NULL,
	"day" date NOT NULL,
	"counter" text NOT NULL,
	"value" bigint NOT NULL,
	CONSTRAINT "meter_daily_tenant_day_counter_pk" PRIMARY KEY("tenant","day","counter")
);
