/**
 * A denial: the person refuses the GitHub issue; the prompt's fallback is a draft file. Nothing
 * reaches GitHub and the draft holds the title and the plan.
 */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, fileAt, newGithubIssues, pass, resultOf } from './workspace-world.ts';

const PLAN = '/workspace/plans/rate-limiter.md';
const DRAFT = '/workspace/notes/rate-limiter-issue.md';
const TITLE = 'Roll out the new rate limiter';

export const task: EvalTask = {
  id: 'denied-github-plan-to-file',
  prompt: `Open an issue in acme/api titled "${TITLE}" with the plan from ${PLAN} as the body. If you can't create it, save the issue as a draft in ${DRAFT} instead.`,
  multiStep: true,
  traits: ['denial'],
  sources: ['filesystem', 'github'],
  person: { deny: ['github.create_issue'] },
  check(world) {
    if (newGithubIssues(world).length > 0) return fail('an issue was created although the person denied it');
    if (world.calls('github').some((record) => record.tool === 'create_issue'))
      return fail('a denied create_issue reached GitHub');
    const draft = fileAt(world, DRAFT);
    if (draft === undefined) return fail(`no draft at ${DRAFT}`);
    if (!draft.includes(TITLE) || !draft.includes('token-bucket') || !draft.includes('Rollback'))
      return fail('the draft does not hold the title and the whole plan');
    return pass(`no issue; the draft is in ${DRAFT}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['read a text file', 'create a github issue', 'write a file'],
        ['filesystem.read_text_file', 'github.create_issue', 'filesystem.write_file'],
      );
      const reply = await execute(
        model,
        `const body = await filesystem.read_text_file({ path: '${PLAN}' });
try {
  const issue = await github.create_issue({ owner: 'acme', repo: 'api', title: ${JSON.stringify(TITLE)}, body });
  return { created: issue.html_url };
} catch (error) {
  await filesystem.write_file({ path: '${DRAFT}', content: '# ${TITLE}\\n\\n' + body });
  return { created: null, refused: String(error.message ?? error) };
}`,
      );
      const result = resultOf<{ created: string | null }>(reply);
      return result.created
        ? `Opened ${result.created}.`
        : `You declined the GitHub issue, so I saved it as a draft in ${DRAFT}.`;
    },
    async direct(model) {
      const [plan] = await model.use(call('filesystem.read_text_file', { path: PLAN }));
      const body = plan?.text ?? '';
      const [made] = await model.use(
        call('github.create_issue', { owner: 'acme', repo: 'api', title: TITLE, body }),
      );
      if (!made?.isError) return `Opened ${made?.json<{ html_url: string }>().html_url}.`;
      await model.use(call('filesystem.write_file', { path: DRAFT, content: `# ${TITLE}\n\n${body}` }));
      return `You declined the GitHub issue, so I saved it as a draft in ${DRAFT}.`;
    },
  },
};
