/**
 * Asked as a person asks: "I renewed the staging TLS certificates, tick it off my to-do list".
 * Nothing names the file: the model finds the allowed directory, the to-do file in it, reads it and
 * ticks that one line. The checker: that line is `[x]`, the rest of the file and every other file
 * unchanged.
 */
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, changedFiles, fail, pass, resultOf, seedOf } from './workspace-world.ts';

const PROMPT = 'I renewed the staging TLS certificates, tick it off my to-do list';
const NEEDED = [
  'filesystem.list_allowed_directories',
  'filesystem.search_files',
  'filesystem.read_text_file',
  'filesystem.edit_file',
];
const PATH = '/workspace/notes/todo.md';
const LINE = /^- \[ \] (.*staging TLS certificates.*)$/m;

/** The to-do file as it should end: the certificates line ticked, nothing else changed. */
const ticked = (content: string) => content.replace(LINE, '- [x] $1');

export const task: EvalTask = {
  id: 'ask-todo-certs',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome', 'approval'],
  sources: ['filesystem'],
  check(world) {
    const changed = changedFiles(world);
    const paths = Object.keys(changed);
    if (paths.length === 0) return fail('no file was changed');
    if (paths.length > 1 || paths[0] !== PATH) return fail(`changed ${paths.join(', ')}, not only ${PATH}`);
    const wanted = ticked(seedOf().fs.files[PATH] ?? '');
    if (changed[PATH]?.trimEnd() !== wanted.trimEnd())
      return fail('the to-do list does not read as before with the certificates line ticked');
    return pass('the certificates line is ticked, nothing else changed');
  },
  scripts: {
    async code(model) {
      // Files: the filesystem's list, whole (14 tools), once an answer has named it.
      await findByAsking(model, PROMPT, NEEDED, seekIn('filesystem', NEEDED, [], 25));
      const reply = await execute(
        model,
        `const root = (await filesystem.list_allowed_directories({})).split('\\n')[1].trim();
const path = (await filesystem.search_files({ path: root, pattern: 'todo' })).split('\\n')[0];
const content = await filesystem.read_text_file({ path });
const line = content.split('\\n').find((l) => /^- \\[ \\] .*staging TLS cert/i.test(l));
await filesystem.edit_file({ path, edits: [{ oldText: line, newText: line.replace('- [ ]', '- [x]') }] });
return { path, line };`,
      );
      const { path, line } = resultOf<{ path: string; line: string }>(reply);
      return `Ticked "${line.slice(6)}" in ${path}.`;
    },
    async direct(model) {
      const [allowed] = await model.use(call('filesystem.list_allowed_directories', {}));
      const root = allowed?.text.split('\n')[1]?.trim();
      const [found] = await model.use(call('filesystem.search_files', { path: root, pattern: 'todo' }));
      const path = found?.text.split('\n')[0];
      const [read] = await model.use(call('filesystem.read_text_file', { path }));
      const line = read?.text.split('\n').find((candidate) => LINE.test(candidate)) ?? '';
      await model.use(
        call('filesystem.edit_file', {
          path,
          edits: [{ oldText: line, newText: line.replace('- [ ]', '- [x]') }],
        }),
      );
      return `Ticked "${line.slice(6)}" in ${path}.`;
    },
  },
};
