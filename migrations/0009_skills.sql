CREATE TABLE `hub_skills` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text NOT NULL,
	`text` text NOT NULL,
	`files` text NOT NULL,
	`source` text NOT NULL,
	`digest` text NOT NULL,
	`added_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
