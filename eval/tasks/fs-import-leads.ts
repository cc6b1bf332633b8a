/**
 * A join, a filter and a loop: the webinar leads of a CSV file imported into HubSpot, skipping
 * the ones already there (a duplicate would be refused, or worse, doubled).
 */
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, contacts, fail, listed, newContacts, pass, resultOf, sameSet } from './workspace-world.ts';

const CSV = '/workspace/imports/webinar-leads.csv';
const NEW = ['tom.baker@bluepeak.io', 'jonas.weber@northwind.example', 'aiko.tanaka@sakura-soft.jp'];

/** The CSV's rows as HubSpot contact properties. */
function rows(text: string): Record<string, string>[] {
  const [head = '', ...lines] = text.trim().split('\n');
  const keys = head.split(',');
  return lines.map((line) =>
    Object.fromEntries(line.split(',').map((value, index) => [keys[index] ?? '', value])),
  );
}

export const task: EvalTask = {
  id: 'fs-import-leads',
  prompt: `Import the webinar leads in ${CSV} into HubSpot as contacts. Skip anyone who's already in HubSpot.`,
  multiStep: true,
  traits: ['join', 'filter', 'loop', 'approval'],
  sources: ['filesystem', 'hubspot'],
  check(world) {
    const created = newContacts(world).map((contact) => contact.properties.email ?? '');
    if (!sameSet(created, NEW)) return fail(`created ${listed(created)}; expected ${listed(NEW)}`);
    const lena = contacts(world).filter(
      (contact) => contact.properties.email === 'lena.fischer@kraftwerk-labs.de',
    );
    if (lena.length !== 1) return fail('Lena Fischer was imported twice');
    const tom = newContacts(world).find((contact) => contact.properties.email === NEW[0]);
    if (tom?.properties.firstname !== 'Tom' || tom.properties.company !== 'Bluepeak')
      return fail('the new contacts lost their names or companies');
    return pass(`imported ${listed(NEW)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['read a text file', 'search hubspot contacts', 'create hubspot contacts'],
        ['filesystem.read_text_file', 'hubspot.hubspotSearchObjects', 'hubspot.hubspotBatchCreateObjects'],
      );
      const reply = await execute(
        model,
        `const [head, ...lines] = (await filesystem.read_text_file({ path: '${CSV}' })).trim().split('\\n');
const keys = head.split(',');
const leads = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])));
const known = await hubspot.hubspotSearchObjects({ objectType: 'contacts', limit: 100, filterGroups: [{ filters: [{ propertyName: 'email', operator: 'IN', values: leads.map((l) => l.email) }] }] });
const existing = new Set(known.results.map((c) => c.properties.email.toLowerCase()));
const fresh = leads.filter((l) => !existing.has(l.email.toLowerCase()));
if (fresh.length) await hubspot.hubspotBatchCreateObjects({ objectType: 'contacts', inputs: fresh.map((properties) => ({ properties })) });
return { imported: fresh.map((l) => l.email), skipped: [...existing] };`,
      );
      const result = resultOf<{ imported: string[]; skipped: string[] }>(reply);
      return `Imported ${result.imported.join(', ')}; skipped ${result.skipped.join(', ')} (already in HubSpot).`;
    },
    async direct(model) {
      const [file] = await model.use(call('filesystem.read_text_file', { path: CSV }));
      const leads = rows(file?.text ?? '');
      const [known] = await model.use(
        call('hubspot.hubspotSearchObjects', {
          objectType: 'contacts',
          limit: 100,
          filterGroups: [
            { filters: [{ propertyName: 'email', operator: 'IN', values: leads.map((lead) => lead.email) }] },
          ],
        }),
      );
      const existing = new Set(
        known
          ?.json<{ results: { properties: { email: string } }[] }>()
          .results.map((c) => c.properties.email),
      );
      const fresh = leads.filter((lead) => !existing.has(lead.email ?? ''));
      await model.use(
        call('hubspot.hubspotBatchCreateObjects', {
          objectType: 'contacts',
          inputs: fresh.map((properties) => ({ properties })),
        }),
      );
      return `Imported ${fresh.map((lead) => lead.email).join(', ')}; the others were already in HubSpot.`;
    },
  },
};
