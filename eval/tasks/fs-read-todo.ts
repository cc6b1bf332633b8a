/** One call does it: read the person's to-do file (and change nothing). */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, changedFiles, fail, pass } from './workspace-world.ts';

const PATH = '/workspace/notes/todo.md';
const READS = ['read_file', 'read_text_file', 'read_multiple_files'];

export const task: EvalTask = {
  id: 'fs-read-todo',
  prompt: "what's on my todo list? it's /workspace/notes/todo.md",
  multiStep: false,
  traits: ['single'],
  sources: ['filesystem'],
  check(world) {
    const read = world
      .calls('filesystem')
      .some((record) => READS.includes(record.tool) && JSON.stringify(record.args).includes(PATH));
    if (!read) return fail(`${PATH} was never read`);
    if (Object.keys(changedFiles(world)).length > 0)
      return fail('files were written although the person only asked');
    return pass(`${PATH} read, nothing written`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['read a text file'], ['filesystem.read_text_file']);
      const reply = await execute(model, `return await filesystem.read_text_file({ path: '${PATH}' });`);
      return `Your list:\n${reply.text}`;
    },
    async direct(model) {
      const [reply] = await model.use(call('filesystem.read_text_file', { path: PATH }));
      return `Your list:\n${reply?.text ?? ''}`;
    },
  },
};
