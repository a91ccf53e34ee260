CREATE TABLE "learner_budget_buckets" (
	"learner_id" text COLLATE "C" NOT NULL,
	"budget" text COLLATE "C" NOT NULL,
	"tokens" double precision NOT NULL,
	"updated_at_ms" bigint NOT NULL,
	"window_ms" bigint NOT NULL,
	"taken" boolean NOT NULL,
	CONSTRAINT "learner_budget_buckets_learner_id_budget_pk" PRIMARY KEY("learner_id","budget")
);
--> statement-breakpoint
CREATE TABLE "learner_job_claims" (
	"learner_id" text COLLATE "C" NOT NULL,
	"job" text COLLATE "C" NOT NULL,
	"owner" text COLLATE "C" NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "learner_job_claims_learner_id_job_pk" PRIMARY KEY("learner_id","job")
);
--> statement-breakpoint
CREATE INDEX "learner_budget_buckets_full_at" ON "learner_budget_buckets" USING btree (("updated_at_ms" + "window_ms"));