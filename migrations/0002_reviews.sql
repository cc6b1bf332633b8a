CREATE TABLE `hub_reviews` (
	`address` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`contract` text NOT NULL,
	`tool` text NOT NULL,
	`reviewed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_reviews_namespace` ON `hub_reviews` (`namespace`);