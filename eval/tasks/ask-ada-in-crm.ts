/**
 * Asked as a person asks: "make sure Ada Byrne from Contoso is in our customer list". She is not
 * yet: the model looks her up by email (and Contoso up by name), then creates her, associated with
 * Contoso. Exactly one new contact, no existing one changed.
 */
import type { CrmObject } from '../fixtures/services/hubspot-seed.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  call,
  changedContacts,
  contacts,
  fail,
  newContacts,
  pass,
  resultOf,
  seedOf,
} from './workspace-world.ts';

const PROMPT = 'make sure Ada Byrne from Contoso (ada.byrne@contoso.com) is in our customer list';
const NEEDED = ['hubspot.hubspotSearchObjects', 'hubspot.hubspotBatchCreateObjects'];
const EMAIL = 'ada.byrne@contoso.com';

const byEmail = {
  objectType: 'contacts',
  filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: EMAIL }] }],
};
const byName = {
  objectType: 'companies',
  filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: 'Contoso' }] }],
};
const properties = (companyId: string) => ({
  email: EMAIL,
  firstname: 'Ada',
  lastname: 'Byrne',
  company: 'Contoso',
  associatedcompanyid: companyId,
  lifecyclestage: 'customer',
});

export const task: EvalTask = {
  id: 'ask-ada-in-crm',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome', 'approval'],
  sources: ['hubspot'],
  check(world) {
    const ada = contacts(world).filter((contact) => contact.properties.email === EMAIL);
    if (ada.length !== 1) return fail(`expected one contact for ${EMAIL}, found ${ada.length}`);
    const [contact] = ada as [CrmObject];
    if (contact.properties.firstname !== 'Ada' || contact.properties.lastname !== 'Byrne')
      return fail(`${EMAIL} is not named Ada Byrne`);
    const contoso = seedOf().crm.companies.find((company) => company.properties.name === 'Contoso');
    if (contact.properties.company !== 'Contoso' && !contact.companies.includes(contoso?.id ?? '?'))
      return fail(`${EMAIL} is not at Contoso`);
    if (newContacts(world).length !== 1) return fail(`${newContacts(world).length} contacts were created`);
    if (changedContacts(world).length > 0) return fail('existing contacts were changed');
    return pass(`Ada Byrne (${contact.id}) is in the CRM, at Contoso`);
  },
  scripts: {
    async code(model) {
      // The CRM's search comes by its own words if they were shown, else from hubspot's list.
      await findByAsking(model, PROMPT, NEEDED, [
        ...seekIn('hubspot', NEEDED, [{ query: 'search objects', namespace: 'hubspot' }]),
      ]);
      const reply = await execute(
        model,
        `const [found, companies] = await Promise.all([
  hubspot.hubspotSearchObjects(${JSON.stringify(byEmail)}),
  hubspot.hubspotSearchObjects(${JSON.stringify(byName)}),
]);
if (found.total > 0) return 'already there: ' + found.results[0].id;
const companyId = companies.results[0].id;
const properties = { ...${JSON.stringify(properties(''))}, associatedcompanyid: companyId };
const made = await hubspot.hubspotBatchCreateObjects({ objectType: 'contacts', inputs: [{ properties }] });
return 'created ' + made.results[0].id;`,
      );
      return `Ada Byrne was not in the CRM: ${resultOf<string>(reply)}, at Contoso.`;
    },
    async direct(model) {
      const [found, companies] = await model.use(
        call('hubspot.hubspotSearchObjects', byEmail),
        call('hubspot.hubspotSearchObjects', byName),
      );
      if ((found?.json<{ total: number }>().total ?? 0) > 0) return 'Ada Byrne is already in the CRM.';
      const companyId = companies?.json<{ results: CrmObject[] }>().results[0]?.id ?? '';
      const [made] = await model.use(
        call('hubspot.hubspotBatchCreateObjects', {
          objectType: 'contacts',
          inputs: [{ properties: properties(companyId) }],
        }),
      );
      return `Ada Byrne was not in the CRM: created ${made?.json<{ results: CrmObject[] }>().results[0]?.id}, at Contoso.`;
    },
  },
};
