/** One call does it: save a short note as a new file (and no other file changed). */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, changedFiles, fail, listed, pass } from './workspace-world.ts';

const PATH = '/workspace/notes/standup-2026-05-20.md';
const NOTE = 'Standup moves to 10:30 from tomorrow; Priya runs it this week.';

export const task: EvalTask = {
  id: 'fs-save-standup',
  prompt: `save this to /workspace/notes/standup-2026-05-20.md: "${NOTE}"`,
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['filesystem'],
  check(world) {
    const changed = changedFiles(world);
    const content = changed[PATH];
    if (content === undefined) return fail(`${PATH} was not written`);
    if (!content.includes('10:30') || !content.includes('Priya'))
      return fail(`${PATH} does not hold the note`);
    const others = Object.keys(changed).filter((path) => path !== PATH);
    if (others.length > 0) return fail(`other files changed too: ${listed(others)}`);
    return pass(`${PATH} holds the note`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['write a file'], ['filesystem.write_file']);
      await execute(
        model,
        `return await filesystem.write_file({ path: '${PATH}', content: ${JSON.stringify(`${NOTE}\n`)} });`,
      );
      return `Saved to ${PATH}.`;
    },
    async direct(model) {
      await model.use(call('filesystem.write_file', { path: PATH, content: `${NOTE}\n` }));
      return `Saved to ${PATH}.`;
    },
  },
};
