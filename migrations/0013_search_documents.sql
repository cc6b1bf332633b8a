CREATE TABLE `hub_search_documents` (
	`namespace` text PRIMARY KEY NOT NULL,
	`fetched_at` integer NOT NULL,
	`format` text NOT NULL,
	`documents` text NOT NULL
);
