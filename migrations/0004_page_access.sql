CREATE TABLE `hub_page_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`target` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE INDEX `hub_page_links_expires` ON `hub_page_links` (`expires_at`);--> statement-breakpoint
CREATE TABLE `hub_page_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`who` text NOT NULL,
	`target` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_page_sessions_expires` ON `hub_page_sessions` (`expires_at`);