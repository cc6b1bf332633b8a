CREATE TABLE `hub_profiles` (
	`name` text PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	`namespaces` text,
	`tools` text,
	`skills` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
