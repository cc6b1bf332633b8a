CREATE TABLE `hub_source_history` (
	`id` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`who` text NOT NULL,
	`change` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_source_history_namespace` ON `hub_source_history` (`namespace`,`at`);