/**
 * Asked as a person asks: "who do we know at Kraftwerk Labs?" One read: the CRM's contacts at that
 * company. The checker reads the call log: contacts searched for Kraftwerk, the CRM unchanged.
 */
import type { CrmObject } from '../fixtures/services/hubspot-seed.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, pass, resultOf } from './workspace-world.ts';

const PROMPT = 'who do we know at Kraftwerk Labs?';
const NEEDED = ['hubspot.hubspotSearchObjects'];
const SEARCH = {
  objectType: 'contacts',
  limit: 100,
  properties: ['jobtitle'],
  filterGroups: [{ filters: [{ propertyName: 'company', operator: 'EQ', value: 'Kraftwerk Labs' }] }],
};
const READS = [
  'hubspot-search-objects',
  'hubspot-list-objects',
  'hubspot-batch-read-objects',
  'hubspot-list-associations',
  'hubspot-get-user-details',
];
const person = (contact: CrmObject) =>
  `${contact.properties.firstname} ${contact.properties.lastname} (${contact.properties.jobtitle}, ${contact.properties.email})`;

export const task: EvalTask = {
  id: 'ask-kraftwerk-people',
  prompt: PROMPT,
  multiStep: false,
  traits: ['outcome', 'single', 'filter'],
  sources: ['hubspot'],
  check(world) {
    const asked = world
      .calls('hubspot')
      .some(
        (record) =>
          record.tool === 'hubspot-search-objects' &&
          record.args.objectType === 'contacts' &&
          /kraftwerk/i.test(JSON.stringify(record.args)),
      );
    if (!asked) return fail('the contacts at Kraftwerk Labs were never searched');
    const writes = world.calls('hubspot').filter((record) => !READS.includes(record.tool));
    if (writes.length > 0) return fail(`a question changed the CRM (${writes[0]?.tool})`);
    return pass('the Kraftwerk Labs contacts read, nothing changed');
  },
  scripts: {
    async code(model) {
      // The CRM's search, by its words if the first answer showed them, else hubspot's list.
      await findByAsking(model, PROMPT, NEEDED, [
        ...seekIn('hubspot', NEEDED, [{ query: 'search objects', namespace: 'hubspot' }]),
      ]);
      const reply = await execute(
        model,
        `const found = await hubspot.hubspotSearchObjects(${JSON.stringify(SEARCH)});
return found.results.map((c) => c.properties.firstname + ' ' + c.properties.lastname + ' (' + c.properties.jobtitle + ', ' + c.properties.email + ')');`,
      );
      const people = resultOf<string[]>(reply);
      return `${people.length} people at Kraftwerk Labs:\n${people.join('\n')}`;
    },
    async direct(model) {
      const [found] = await model.use(call('hubspot.hubspotSearchObjects', SEARCH));
      const people = (found?.json<{ results: CrmObject[] }>().results ?? []).map(person);
      return `${people.length} people at Kraftwerk Labs:\n${people.join('\n')}`;
    },
  },
};
