CREATE TABLE `cards` (
	`id` text PRIMARY KEY NOT NULL,
	`learner_id` text NOT NULL,
	`point_id` text NOT NULL,
	`due` integer NOT NULL,
	`stability` real NOT NULL,
	`difficulty` real NOT NULL,
	`elapsed_days` integer NOT NULL,
	`scheduled_days` integer NOT NULL,
	`learning_steps` integer NOT NULL,
	`reps` integer NOT NULL,
	`lapses` integer NOT NULL,
	`state` text NOT NULL,
	`last_review` integer,
	FOREIGN KEY (`learner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`point_id`) REFERENCES `recall_points`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cards_learner_point_unique` ON `cards` (`learner_id`,`point_id`);--> statement-breakpoint
CREATE TABLE `learners` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`username_key` text NOT NULL,
	`password_hash` text NOT NULL,
	`desired_retention` real DEFAULT 0.9 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `learners_username_key_unique` ON `learners` (`username_key`);--> statement-breakpoint
CREATE TABLE `llm_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text,
	`purpose` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cache_read_tokens` integer DEFAULT 0 NOT NULL,
	`cache_write_tokens` integer DEFAULT 0 NOT NULL,
	`latency_ms` integer NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `llm_calls_session_idx` ON `llm_calls` (`session_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`seq` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`tool_call` text,
	`tool_call_id` text,
	`widget_answer` text,
	`client_message_id` text,
	`answered_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_session_seq_unique` ON `messages` (`session_id`,`seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_session_client_id_unique` ON `messages` (`session_id`,`client_message_id`);--> statement-breakpoint
CREATE TABLE `pending_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`tool_call_id` text NOT NULL,
	`kind` text NOT NULL,
	`props` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`response` text,
	`created_at` integer NOT NULL,
	`answered_at` integer,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pending_actions_session_idx` ON `pending_actions` (`session_id`,`status`);--> statement-breakpoint
CREATE TABLE `recall_points` (
	`id` text PRIMARY KEY NOT NULL,
	`recall_set_id` text NOT NULL,
	`content` text NOT NULL,
	`context` text,
	`position` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`recall_set_id`) REFERENCES `recall_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recall_points_set_idx` ON `recall_points` (`recall_set_id`,`position`);--> statement-breakpoint
CREATE TABLE `recall_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`learner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`learner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `recall_sets_learner_idx` ON `recall_sets` (`learner_id`);--> statement-breakpoint
CREATE TABLE `review_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`card_id` text NOT NULL,
	`session_id` text,
	`rating` text NOT NULL,
	`confidence` real,
	`state` text NOT NULL,
	`due` integer NOT NULL,
	`stability` real NOT NULL,
	`difficulty` real NOT NULL,
	`scheduled_days` integer NOT NULL,
	`reviewed_at` integer NOT NULL,
	FOREIGN KEY (`card_id`) REFERENCES `cards`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_logs_card_idx` ON `review_logs` (`card_id`);--> statement-breakpoint
CREATE TABLE `session_points` (
	`session_id` text NOT NULL,
	`point_id` text NOT NULL,
	`position` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`confidence` real,
	`observation` text,
	`turn_recalled` integer,
	`recalled_at` integer,
	PRIMARY KEY(`session_id`, `point_id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`point_id`) REFERENCES `recall_points`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`learner_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`mode` text DEFAULT 'recall' NOT NULL,
	`rabbithole_topic` text,
	`recall_set_id` text,
	`title` text NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`turn` integer DEFAULT 0 NOT NULL,
	`probe_index` integer DEFAULT 0 NOT NULL,
	`probe_attempts` integer DEFAULT 0 NOT NULL,
	`end_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`learner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recall_set_id`) REFERENCES `recall_sets`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `sessions_learner_idx` ON `sessions` (`learner_id`,`created_at`);