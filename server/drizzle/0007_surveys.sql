CREATE TABLE `survey_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`survey_id` text NOT NULL,
	`session_id` text NOT NULL,
	`learner_id` text NOT NULL,
	`question_id` text NOT NULL,
	`answer_json` text,
	`answer_text` text,
	`answered_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`learner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `survey_responses_session_question_unique` ON `survey_responses` (`session_id`,`question_id`);--> statement-breakpoint
CREATE INDEX `survey_responses_survey_idx` ON `survey_responses` (`survey_id`,`answered_at`);--> statement-breakpoint
CREATE TABLE `surveys` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`built_in` integer DEFAULT false NOT NULL,
	`shared` integer DEFAULT false NOT NULL,
	`title` text NOT NULL,
	`survey_json` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `learners`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `surveys_owner_idx` ON `surveys` (`owner_id`);--> statement-breakpoint
CREATE INDEX `surveys_visible_idx` ON `surveys` (`shared`,`built_in`);