/** The tracker tasks (linear, slack, sentry), in the order the report lists them. */
import type { EvalTask } from '../task.ts';
import { task as deniedCloseComments } from './denied-close-comments.ts';
import { task as deniedPostFilesIssue } from './denied-post-files-issue.ts';
import { task as incidentThreadUpdate } from './incident-thread-update.ts';
import { task as j2TopBugsToEng } from './j2-top-bugs-to-eng.ts';
import { task as linearCommentEng131 } from './linear-comment-eng-131.ts';
import { task as linearCommentPostgres } from './linear-comment-postgres.ts';
import { task as linearMarkEng150Done } from './linear-mark-eng-150-done.ts';
import { task as linearSentryStatus } from './linear-sentry-status.ts';
import { task as linearStaleUrgent } from './linear-stale-urgent.ts';
import { task as linearStatusEng142 } from './linear-status-eng-142.ts';
import { task as linearUnassignedUrgent } from './linear-unassigned-urgent.ts';
import { task as sentryAssignTimeouts } from './sentry-assign-timeouts.ts';
import { task as sentryErrorsToLinear } from './sentry-errors-to-linear.ts';
import { task as sentryResolveApi3r } from './sentry-resolve-api-3r.ts';
import { task as sentryTopWebErrors } from './sentry-top-web-errors.ts';
import { task as slackPostDeployDone } from './slack-post-deploy-done.ts';
import { task as slackReactDoneBugs } from './slack-react-done-bugs.ts';

export const TRACKER_TASKS: readonly EvalTask[] = [
  j2TopBugsToEng,
  slackPostDeployDone,
  linearStatusEng142,
  linearMarkEng150Done,
  linearCommentEng131,
  sentryResolveApi3r,
  sentryErrorsToLinear,
  linearCommentPostgres,
  linearStaleUrgent,
  linearUnassignedUrgent,
  sentryTopWebErrors,
  sentryAssignTimeouts,
  slackReactDoneBugs,
  linearSentryStatus,
  incidentThreadUpdate,
  deniedPostFilesIssue,
  deniedCloseComments,
];
