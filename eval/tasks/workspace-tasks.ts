/** The workspace tasks (notion, hubspot, github, filesystem), in the order the report lists them. */
import type { EvalTask } from '../task.ts';
import { task as deniedGithubPlanToFile } from './denied-github-plan-to-file.ts';
import { task as deniedNotionRoadmapToTodo } from './denied-notion-roadmap-to-todo.ts';
import { task as fsImportLeads } from './fs-import-leads.ts';
import { task as fsReadTodo } from './fs-read-todo.ts';
import { task as fsSaveStandup } from './fs-save-standup.ts';
import { task as githubBugsToNotion } from './github-bugs-to-notion.ts';
import { task as githubCloseWeb12 } from './github-close-web-12.ts';
import { task as githubCommentApi107 } from './github-comment-api-107.ts';
import { task as githubStaleWeb } from './github-stale-web.ts';
import { task as githubTriageApi } from './github-triage-api.ts';
import { task as hubspotBigDealsReport } from './hubspot-big-deals-report.ts';
import { task as hubspotCreateAda } from './hubspot-create-ada.ts';
import { task as hubspotDealsToNotion } from './hubspot-deals-to-notion.ts';
import { task as hubspotGermanyStale } from './hubspot-germany-stale.ts';
import { task as hubspotNorthwindToContoso } from './hubspot-northwind-to-contoso.ts';
import { task as notionRetroToGithub } from './notion-retro-to-github.ts';

export const WORKSPACE_TASKS: readonly EvalTask[] = [
  fsReadTodo,
  fsSaveStandup,
  hubspotCreateAda,
  githubCloseWeb12,
  githubCommentApi107,
  hubspotGermanyStale,
  hubspotNorthwindToContoso,
  hubspotBigDealsReport,
  hubspotDealsToNotion,
  githubBugsToNotion,
  notionRetroToGithub,
  fsImportLeads,
  githubTriageApi,
  githubStaleWeb,
  deniedGithubPlanToFile,
  deniedNotionRoadmapToTodo,
];
