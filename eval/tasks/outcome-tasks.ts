/**
 * The outcome tasks (issue #35): requests as a person makes them, naming the outcome and not the
 * tools, so code mode has to find its tools from those words (find-by-asking.ts) and recover when
 * the first search does not show them. In the order the report lists them.
 */
import type { EvalTask } from '../task.ts';
import { task as askAdaInCrm } from './ask-ada-in-crm.ts';
import { task as askApplePayStatus } from './ask-apple-pay-status.ts';
import { task as askDeployDone } from './ask-deploy-done.ts';
import { task as askFailoverMoved } from './ask-failover-moved.ts';
import { task as askFooterFixed } from './ask-footer-fixed.ts';
import { task as askKraftwerkPeople } from './ask-kraftwerk-people.ts';
import { task as askMyPlate } from './ask-my-plate.ts';
import { task as askOutageReplies } from './ask-outage-replies.ts';
import { task as askPipelineAgenda } from './ask-pipeline-agenda.ts';
import { task as askRetroActions } from './ask-retro-actions.ts';
import { task as askTakeCheckoutCrash } from './ask-take-checkout-crash.ts';
import { task as askTodoCerts } from './ask-todo-certs.ts';
import { task as askWebBroken } from './ask-web-broken.ts';

export const OUTCOME_TASKS: readonly EvalTask[] = [
  askWebBroken,
  askMyPlate,
  askKraftwerkPeople,
  askFailoverMoved,
  askDeployDone,
  askOutageReplies,
  askAdaInCrm,
  askApplePayStatus,
  askTodoCerts,
  askTakeCheckoutCrash,
  askPipelineAgenda,
  askRetroActions,
  askFooterFixed,
];
