/** A loop: every Northwind Traders contact's company renamed to Contoso (no other contact touched). */
import type { CrmObject } from '../fixtures/services/hubspot-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  changedContacts,
  contacts,
  fail,
  listed,
  pass,
  resultOf,
  sameSet,
  seedOf,
} from './workspace-world.ts';

const northwind = () =>
  seedOf()
    .crm.contacts.filter((contact) => contact.properties.company === 'Northwind Traders')
    .map((contact) => contact.id);

export const task: EvalTask = {
  id: 'hubspot-northwind-to-contoso',
  prompt:
    'Northwind Traders got acquired by Contoso. Update the company on all the Northwind contacts in HubSpot to Contoso.',
  multiStep: true,
  traits: ['loop', 'approval'],
  sources: ['hubspot'],
  check(world) {
    const wanted = northwind();
    const stale = contacts(world).filter(
      (contact) => wanted.includes(contact.id) && contact.properties.company !== 'Contoso',
    );
    if (stale.length > 0)
      return fail(
        `${stale.length} of ${wanted.length} Northwind contacts still say ${stale[0]?.properties.company}`,
      );
    const changed = changedContacts(world).map((contact) => contact.id);
    if (!sameSet(changed, wanted))
      return fail(`other contacts changed too: ${listed(changed.filter((id) => !wanted.includes(id)))}`);
    return pass(`${wanted.length} contacts now at Contoso`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search hubspot contacts by company', 'update hubspot contacts'],
        ['hubspot.hubspotSearchObjects', 'hubspot.hubspotBatchUpdateObjects'],
      );
      const reply = await execute(
        model,
        `const found = await hubspot.hubspotSearchObjects({ objectType: 'contacts', limit: 100, properties: ['company'], filterGroups: [{ filters: [{ propertyName: 'company', operator: 'EQ', value: 'Northwind Traders' }] }] });
await hubspot.hubspotBatchUpdateObjects({ objectType: 'contacts', inputs: found.results.map((c) => ({ id: c.id, properties: { company: 'Contoso' } })) });
return found.results.map((c) => c.properties.firstname + ' ' + c.properties.lastname);`,
      );
      return `Moved ${resultOf<string[]>(reply).join(', ')} to Contoso.`;
    },
    async direct(model) {
      const [found] = await model.use(
        call('hubspot.hubspotSearchObjects', {
          objectType: 'contacts',
          limit: 100,
          properties: ['company'],
          filterGroups: [
            { filters: [{ propertyName: 'company', operator: 'EQ', value: 'Northwind Traders' }] },
          ],
        }),
      );
      const people = found?.json<{ results: CrmObject[] }>().results ?? [];
      await model.use(
        call('hubspot.hubspotBatchUpdateObjects', {
          objectType: 'contacts',
          inputs: people.map((contact) => ({ id: contact.id, properties: { company: 'Contoso' } })),
        }),
      );
      return `Moved ${people.length} Northwind contacts to Contoso.`;
    },
  },
};
