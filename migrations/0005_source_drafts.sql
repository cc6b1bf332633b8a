CREATE TABLE `hub_source_drafts` (
	`id` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`manifest` text NOT NULL,
	`notices` text NOT NULL,
	`credential` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_source_drafts_expires` ON `hub_source_drafts` (`expires_at`);