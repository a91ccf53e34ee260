CREATE TABLE `agent_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`learner_id` text NOT NULL,
	`seq` integer NOT NULL,
	`turn` integer NOT NULL,
	`agent` text NOT NULL,
	`input_summary` text NOT NULL,
	`output_json` text,
	`latency_ms` integer,
	`tokens_in` integer,
	`tokens_out` integer,
	`outcome` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`learner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_logs_session_seq_unique` ON `agent_logs` (`session_id`,`seq`);--> statement-breakpoint
CREATE TABLE `study_plans` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`built_in` integer DEFAULT false NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`title` text NOT NULL,
	`plan_json` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `study_plans_owner_idx` ON `study_plans` (`owner_id`);--> statement-breakpoint
CREATE INDEX `study_plans_visible_idx` ON `study_plans` (`shared`,`built_in`);