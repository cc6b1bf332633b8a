/**
 * A filter over the large list, joined across two objects: of 400 contacts, those at companies in
 * Germany not contacted since June 2025, written to a report file (exactly their emails).
 */
import type { CrmObject } from '../fixtures/services/hubspot-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, emailsIn, fail, fileAt, listed, pass, resultOf, sameSet, seedOf } from './workspace-world.ts';

const PATH = '/workspace/reports/germany-followups.md';
const SINCE = '2025-06-01';

/** The contacts the person means, from the seed. */
export function wantedEmails(): string[] {
  const { companies, contacts } = seedOf().crm;
  const german = new Set(
    companies.filter((company) => company.properties.country === 'Germany').map((company) => company.id),
  );
  return contacts
    .filter(
      (contact) =>
        german.has(contact.properties.associatedcompanyid ?? '') &&
        (contact.properties.notes_last_contacted ?? '') < SINCE,
    )
    .map((contact) => contact.properties.email ?? '');
}

const line = (contact: CrmObject) =>
  `- ${contact.properties.firstname} ${contact.properties.lastname} <${contact.properties.email}>, ${contact.properties.company}, last contacted ${contact.properties.notes_last_contacted?.slice(0, 10)}`;

export const task: EvalTask = {
  id: 'hubspot-germany-stale',
  prompt:
    "Which of our contacts at companies based in Germany haven't been contacted since June 2025? Put them in /workspace/reports/germany-followups.md with name, email and company.",
  multiStep: true,
  traits: ['filter', 'join', 'approval'],
  sources: ['hubspot', 'filesystem'],
  check(world) {
    const report = fileAt(world, PATH);
    if (report === undefined) return fail(`${PATH} was not written`);
    const named = emailsIn(report);
    const wanted = wantedEmails();
    if (!sameSet(named, wanted)) {
      const extra = named.filter((email) => !wanted.includes(email));
      const missing = wanted.filter((email) => !named.includes(email));
      return fail(`the report is off: extra ${listed(extra)}; missing ${listed(missing)}`);
    }
    return pass(`${wanted.length} contacts listed`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search hubspot companies and contacts', 'write a file'],
        ['hubspot.hubspotSearchObjects', 'filesystem.write_file'],
      );
      const reply = await execute(
        model,
        `const companies = await hubspot.hubspotSearchObjects({ objectType: 'companies', limit: 100, filterGroups: [{ filters: [{ propertyName: 'country', operator: 'EQ', value: 'Germany' }] }] });
const ids = companies.results.map((c) => c.id);
const found = await hubspot.hubspotSearchObjects({ objectType: 'contacts', limit: 100, properties: ['company', 'notes_last_contacted'],
  filterGroups: [{ filters: [{ propertyName: 'associatedcompanyid', operator: 'IN', values: ids }, { propertyName: 'notes_last_contacted', operator: 'LT', value: '${SINCE}' }] }] });
const lines = found.results.map((c) => \`- \${c.properties.firstname} \${c.properties.lastname} <\${c.properties.email}>, \${c.properties.company}, last contacted \${c.properties.notes_last_contacted.slice(0, 10)}\`);
await filesystem.write_file({ path: '${PATH}', content: '# German contacts not contacted since June 2025\\n\\n' + lines.join('\\n') + '\\n' });
return { count: lines.length, companies: ids.length };`,
      );
      const result = resultOf<{ count: number; companies: number }>(reply);
      return `${result.count} contacts at ${result.companies} German companies haven't been contacted since June 2025; they're in ${PATH}.`;
    },
    async direct(model) {
      const [companies] = await model.use(
        call('hubspot.hubspotSearchObjects', {
          objectType: 'companies',
          limit: 100,
          filterGroups: [{ filters: [{ propertyName: 'country', operator: 'EQ', value: 'Germany' }] }],
        }),
      );
      const ids = companies?.json<{ results: CrmObject[] }>().results.map((company) => company.id) ?? [];
      const [found] = await model.use(
        call('hubspot.hubspotSearchObjects', {
          objectType: 'contacts',
          limit: 100,
          properties: ['company', 'notes_last_contacted'],
          filterGroups: [
            {
              filters: [
                { propertyName: 'associatedcompanyid', operator: 'IN', values: ids },
                { propertyName: 'notes_last_contacted', operator: 'LT', value: SINCE },
              ],
            },
          ],
        }),
      );
      const people = found?.json<{ results: CrmObject[] }>().results ?? [];
      const content = `# German contacts not contacted since June 2025\n\n${people.map(line).join('\n')}\n`;
      await model.use(call('filesystem.write_file', { path: PATH, content }));
      return `${people.length} contacts haven't been contacted since June 2025; they're in ${PATH}.`;
    },
  },
};
