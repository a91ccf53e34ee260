CREATE TABLE `ability_estimates` (
	`session_id` text NOT NULL,
	`learner_id` text NOT NULL,
	`domain` text NOT NULL,
	`ability` real NOT NULL,
	`standard_error` real NOT NULL,
	`responses` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `domain`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`learner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ability_estimates_learner_idx` ON `ability_estimates` (`learner_id`,`domain`);--> statement-breakpoint
CREATE TABLE `assessment_items` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`position` integer NOT NULL,
	`section_id` text NOT NULL,
	`skill_id` text NOT NULL,
	`domain` text NOT NULL,
	`kind` text NOT NULL,
	`stem` text NOT NULL,
	`options` text,
	`correct_index` integer,
	`correct_answer` text NOT NULL,
	`code` text,
	`difficulty` real NOT NULL,
	`level` text NOT NULL,
	`params` text NOT NULL,
	`fingerprint` text NOT NULL,
	`widget_id` text NOT NULL,
	`presented_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assessment_items_position_unique` ON `assessment_items` (`session_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `assessment_items_fingerprint_unique` ON `assessment_items` (`session_id`,`fingerprint`);--> statement-breakpoint
CREATE TABLE `responses` (
	`item_id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`answer_text` text NOT NULL,
	`credit` real NOT NULL,
	`tests_passed` integer,
	`tests_total` integer,
	`note` text,
	`response_seconds` real NOT NULL,
	`answered_at` integer NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `assessment_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
