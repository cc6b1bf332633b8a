/** One call does it: create one contact (the person approves the write). */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, changedContacts, fail, newContacts, pass } from './workspace-world.ts';

const PROPERTIES = {
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  company: 'Analytical Engines',
};

export const task: EvalTask = {
  id: 'hubspot-create-ada',
  prompt: 'create a contact in hubspot for Ada Lovelace, ada@example.com, she works at Analytical Engines',
  multiStep: false,
  traits: ['single', 'approval'],
  sources: ['hubspot'],
  check(world) {
    const created = newContacts(world);
    if (created.length !== 1) return fail(`expected one new contact, found ${created.length}`);
    const [ada] = created;
    if (ada?.properties.email !== 'ada@example.com') return fail('the new contact is not ada@example.com');
    if (ada.properties.firstname !== 'Ada' || ada.properties.lastname !== 'Lovelace')
      return fail('the new contact is not named Ada Lovelace');
    if (changedContacts(world).length > 0) return fail('existing contacts were changed');
    return pass(`contact ${ada.id} created for ada@example.com`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(model, ['create hubspot contact'], ['hubspot.hubspotBatchCreateObjects']);
      const reply = await execute(
        model,
        `const made = await hubspot.hubspotBatchCreateObjects({ objectType: 'contacts', inputs: [{ properties: ${JSON.stringify(PROPERTIES)} }] });
return made.results[0].id;`,
      );
      return `Created Ada Lovelace (contact ${reply.text}).`;
    },
    async direct(model) {
      const [reply] = await model.use(
        call('hubspot.hubspotBatchCreateObjects', {
          objectType: 'contacts',
          inputs: [{ properties: PROPERTIES }],
        }),
      );
      return `Created Ada Lovelace (contact ${reply?.json<{ results: { id: string }[] }>().results[0]?.id}).`;
    },
  },
};
