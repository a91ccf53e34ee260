CREATE TABLE "ability_estimates" (
	"session_id" text COLLATE "C" NOT NULL,
	"learner_id" text COLLATE "C" NOT NULL,
	"domain" text COLLATE "C" NOT NULL,
	"ability" double precision NOT NULL,
	"standard_error" double precision NOT NULL,
	"responses" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ability_estimates_session_id_domain_pk" PRIMARY KEY("session_id","domain")
);
--> statement-breakpoint
CREATE TABLE "agent_logs" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"learner_id" text COLLATE "C" NOT NULL,
	"seq" integer NOT NULL,
	"turn" integer NOT NULL,
	"agent" text COLLATE "C" NOT NULL,
	"input_summary" text COLLATE "C" NOT NULL,
	"output_json" jsonb,
	"latency_ms" integer,
	"tokens_in" integer,
	"tokens_out" integer,
	"outcome" text COLLATE "C" NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assessment_items" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"position" integer NOT NULL,
	"section_id" text COLLATE "C" NOT NULL,
	"skill_id" text COLLATE "C" NOT NULL,
	"domain" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"stem" text COLLATE "C" NOT NULL,
	"options" jsonb,
	"correct_index" integer,
	"correct_answer" text COLLATE "C" NOT NULL,
	"code" jsonb,
	"difficulty" double precision NOT NULL,
	"level" text COLLATE "C" NOT NULL,
	"params" jsonb NOT NULL,
	"fingerprint" text COLLATE "C" NOT NULL,
	"widget_id" text COLLATE "C" NOT NULL,
	"presented_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"learner_id" text COLLATE "C" NOT NULL,
	"point_id" text COLLATE "C" NOT NULL,
	"due" timestamp with time zone NOT NULL,
	"stability" double precision NOT NULL,
	"difficulty" double precision NOT NULL,
	"elapsed_days" integer NOT NULL,
	"scheduled_days" integer NOT NULL,
	"learning_steps" integer NOT NULL,
	"reps" integer NOT NULL,
	"lapses" integer NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"last_review" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "learners" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"username" text COLLATE "C" NOT NULL,
	"username_key" text COLLATE "C" NOT NULL,
	"password_hash" text COLLATE "C" NOT NULL,
	"desired_retention" double precision DEFAULT 0.9 NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_calls" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C",
	"learner_id" text COLLATE "C",
	"purpose" text COLLATE "C" NOT NULL,
	"provider" text COLLATE "C" NOT NULL,
	"model" text COLLATE "C" NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cache_read_tokens" integer DEFAULT 0 NOT NULL,
	"cache_write_tokens" integer DEFAULT 0 NOT NULL,
	"latency_ms" integer NOT NULL,
	"outcome" text COLLATE "C" NOT NULL,
	"error" text COLLATE "C",
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"seq" integer NOT NULL,
	"role" text COLLATE "C" NOT NULL,
	"content" text COLLATE "C" NOT NULL,
	"tool_call" jsonb,
	"tool_call_id" text COLLATE "C",
	"widget_answer" jsonb,
	"client_message_id" text COLLATE "C",
	"answered_at" timestamp with time zone,
	"stopped" boolean DEFAULT false NOT NULL,
	"superseded_by" text COLLATE "C",
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_actions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"tool_call_id" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"props" jsonb NOT NULL,
	"status" text COLLATE "C" DEFAULT 'pending' NOT NULL,
	"response" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recall_points" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"recall_set_id" text COLLATE "C" NOT NULL,
	"content" text COLLATE "C" NOT NULL,
	"context" text COLLATE "C",
	"position" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recall_sets" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"learner_id" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"description" text COLLATE "C",
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "responses" (
	"item_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"answer_text" text COLLATE "C" NOT NULL,
	"credit" double precision NOT NULL,
	"tests_passed" integer,
	"tests_total" integer,
	"note" text COLLATE "C",
	"test_outcomes" jsonb,
	"response_seconds" double precision NOT NULL,
	"answered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_logs" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"card_id" text COLLATE "C" NOT NULL,
	"session_id" text COLLATE "C",
	"rating" text COLLATE "C" NOT NULL,
	"confidence" double precision,
	"state" text COLLATE "C" NOT NULL,
	"due" timestamp with time zone NOT NULL,
	"stability" double precision NOT NULL,
	"difficulty" double precision NOT NULL,
	"scheduled_days" integer NOT NULL,
	"reviewed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduler_runs" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"learner_id" text COLLATE "C" NOT NULL,
	"review_count" integer NOT NULL,
	"weights" jsonb NOT NULL,
	"previous_weights" jsonb,
	"log_loss" double precision NOT NULL,
	"rmse_bins" double precision NOT NULL,
	"previous_log_loss" double precision NOT NULL,
	"previous_rmse_bins" double precision NOT NULL,
	"kept" boolean NOT NULL,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_points" (
	"session_id" text COLLATE "C" NOT NULL,
	"point_id" text COLLATE "C" NOT NULL,
	"position" integer NOT NULL,
	"status" text COLLATE "C" DEFAULT 'pending' NOT NULL,
	"confidence" double precision,
	"observation" text COLLATE "C",
	"turn_recalled" integer,
	"recalled_at" timestamp with time zone,
	CONSTRAINT "session_points_session_id_point_id_pk" PRIMARY KEY("session_id","point_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"learner_id" text COLLATE "C" NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"recall_set_id" text COLLATE "C",
	"title" text COLLATE "C" NOT NULL,
	"type_state" jsonb NOT NULL,
	"turn" integer DEFAULT 0 NOT NULL,
	"end_reason" text COLLATE "C",
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "study_plans" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"owner_id" text COLLATE "C",
	"built_in" boolean DEFAULT false NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"title" text COLLATE "C" NOT NULL,
	"plan_json" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_responses" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"survey_id" text COLLATE "C" NOT NULL,
	"session_id" text COLLATE "C" NOT NULL,
	"learner_id" text COLLATE "C" NOT NULL,
	"question_id" text COLLATE "C" NOT NULL,
	"answer_json" jsonb,
	"answer_text" text COLLATE "C",
	"answered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"owner_id" text COLLATE "C",
	"built_in" boolean DEFAULT false NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"title" text COLLATE "C" NOT NULL,
	"survey_json" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ability_estimates" ADD CONSTRAINT "ability_estimates_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ability_estimates" ADD CONSTRAINT "ability_estimates_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_logs" ADD CONSTRAINT "agent_logs_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_logs" ADD CONSTRAINT "agent_logs_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_items" ADD CONSTRAINT "assessment_items_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_point_id_recall_points_id_fk" FOREIGN KEY ("point_id") REFERENCES "public"."recall_points"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_actions" ADD CONSTRAINT "pending_actions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recall_points" ADD CONSTRAINT "recall_points_recall_set_id_recall_sets_id_fk" FOREIGN KEY ("recall_set_id") REFERENCES "public"."recall_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recall_sets" ADD CONSTRAINT "recall_sets_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_item_id_assessment_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."assessment_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_logs" ADD CONSTRAINT "review_logs_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduler_runs" ADD CONSTRAINT "scheduler_runs_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_points" ADD CONSTRAINT "session_points_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_points" ADD CONSTRAINT "session_points_point_id_recall_points_id_fk" FOREIGN KEY ("point_id") REFERENCES "public"."recall_points"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_recall_set_id_recall_sets_id_fk" FOREIGN KEY ("recall_set_id") REFERENCES "public"."recall_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_plans" ADD CONSTRAINT "study_plans_owner_id_learners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_learner_id_learners_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_owner_id_learners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."learners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ability_estimates_learner_idx" ON "ability_estimates" USING btree ("learner_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_logs_session_seq_unique" ON "agent_logs" USING btree ("session_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_items_position_unique" ON "assessment_items" USING btree ("session_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_items_fingerprint_unique" ON "assessment_items" USING btree ("session_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_learner_point_unique" ON "cards" USING btree ("learner_id","point_id");--> statement-breakpoint
CREATE UNIQUE INDEX "learners_username_key_unique" ON "learners" USING btree ("username_key");--> statement-breakpoint
CREATE INDEX "llm_calls_session_idx" ON "llm_calls" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "llm_calls_learner_created_idx" ON "llm_calls" USING btree ("learner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_session_seq_unique" ON "messages" USING btree ("session_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_session_client_id_unique" ON "messages" USING btree ("session_id","client_message_id");--> statement-breakpoint
CREATE INDEX "pending_actions_session_idx" ON "pending_actions" USING btree ("session_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_actions_one_pending_unique" ON "pending_actions" USING btree ("session_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "recall_points_set_idx" ON "recall_points" USING btree ("recall_set_id","position");--> statement-breakpoint
CREATE INDEX "recall_sets_learner_idx" ON "recall_sets" USING btree ("learner_id");--> statement-breakpoint
CREATE INDEX "review_logs_card_idx" ON "review_logs" USING btree ("card_id");--> statement-breakpoint
CREATE INDEX "scheduler_runs_learner_idx" ON "scheduler_runs" USING btree ("learner_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_learner_idx" ON "sessions" USING btree ("learner_id","created_at");--> statement-breakpoint
CREATE INDEX "study_plans_owner_idx" ON "study_plans" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "study_plans_visible_idx" ON "study_plans" USING btree ("shared","built_in");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_session_question_unique" ON "survey_responses" USING btree ("session_id","question_id");--> statement-breakpoint
CREATE INDEX "survey_responses_survey_idx" ON "survey_responses" USING btree ("survey_id","answered_at");--> statement-breakpoint
CREATE INDEX "surveys_owner_idx" ON "surveys" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "surveys_visible_idx" ON "surveys" USING btree ("shared","built_in");