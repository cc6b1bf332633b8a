/**
 * A join within the CRM, written to a file: every open deal over $50k with its company (deals
 * name no company; the association does), as a report in /workspace/reports.
 */
import type { CrmObject } from '../fixtures/services/hubspot-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import { call, fail, fileAt, listed, pass, resultOf, seedOf } from './workspace-world.ts';

const PATH = '/workspace/reports/open-deals-over-50k.md';
const CLOSED = ['closedwon', 'closedlost'];
const FILTERS = [
  { propertyName: 'amount', operator: 'GT', value: '50000' },
  { propertyName: 'dealstage', operator: 'NOT_IN', values: CLOSED },
];

/** Deal name → company name, for the deals the person means. */
export function bigDeals(): Map<string, string> {
  const { deals, companies } = seedOf().crm;
  const name = (id: string) => companies.find((company) => company.id === id)?.properties.name ?? '';
  return new Map(
    deals
      .filter(
        (deal) =>
          Number(deal.properties.amount) > 50_000 && !CLOSED.includes(deal.properties.dealstage ?? ''),
      )
      .map((deal) => [deal.properties.dealname ?? '', name(deal.companies[0] ?? '')]),
  );
}

export const task: EvalTask = {
  id: 'hubspot-big-deals-report',
  prompt:
    'Write a report of every open deal over $50k to /workspace/reports/open-deals-over-50k.md: deal name, amount, stage, and which company it is with.',
  multiStep: true,
  traits: ['join', 'filter', 'approval'],
  sources: ['hubspot', 'filesystem'],
  check(world) {
    const report = fileAt(world, PATH);
    if (report === undefined) return fail(`${PATH} was not written`);
    const wanted = bigDeals();
    const lines = report.split('\n');
    const missing = [...wanted].filter(
      ([deal, company]) => !lines.some((text) => text.includes(deal) && text.includes(company)),
    );
    if (missing.length > 0)
      return fail(`missing (or without their company): ${listed(missing.map(([deal]) => deal))}`);
    const extra = seedOf()
      .crm.deals.map((deal) => deal.properties.dealname ?? '')
      .filter((deal) => !wanted.has(deal) && report.includes(deal));
    if (extra.length > 0) return fail(`deals that are closed or small listed: ${listed(extra)}`);
    return pass(`${wanted.size} deals with their companies`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['search hubspot deals', 'deal company associations', 'read hubspot objects by id', 'write a file'],
        [
          'hubspot.hubspotSearchObjects',
          'hubspot.hubspotListAssociations',
          'hubspot.hubspotBatchReadObjects',
          'filesystem.write_file',
        ],
      );
      const reply = await execute(
        model,
        `const deals = (await hubspot.hubspotSearchObjects({ objectType: 'deals', limit: 100, filterGroups: [{ filters: ${JSON.stringify(FILTERS)} }] })).results;
const links = await Promise.all(deals.map((d) => hubspot.hubspotListAssociations({ objectType: 'deals', objectId: d.id, toObjectType: 'companies' })));
const companyIds = [...new Set(links.flatMap((l) => l.results.map((r) => String(r.toObjectId))))];
const companies = (await hubspot.hubspotBatchReadObjects({ objectType: 'companies', inputs: companyIds.map((id) => ({ id })) })).results;
const nameOf = Object.fromEntries(companies.map((c) => [c.id, c.properties.name]));
const rows = deals.map((d, i) => \`| \${d.properties.dealname} | $\${Number(d.properties.amount).toLocaleString('en-US')} | \${d.properties.dealstage} | \${nameOf[String(links[i].results[0]?.toObjectId)] ?? '—'} |\`);
await filesystem.write_file({ path: '${PATH}', content: '# Open deals over $50k\\n\\n| Deal | Amount | Stage | Company |\\n|---|---|---|---|\\n' + rows.join('\\n') + '\\n' });
return rows.length;`,
      );
      return `${resultOf<number>(reply)} open deals over $50k are in ${PATH}.`;
    },
    async direct(model) {
      const [found] = await model.use(
        call('hubspot.hubspotSearchObjects', {
          objectType: 'deals',
          limit: 100,
          filterGroups: [{ filters: FILTERS }],
        }),
      );
      const deals = found?.json<{ results: CrmObject[] }>().results ?? [];
      const links = await model.use(
        ...deals.map((deal) =>
          call('hubspot.hubspotListAssociations', {
            objectType: 'deals',
            objectId: deal.id,
            toObjectType: 'companies',
          }),
        ),
      );
      const companyOf = links.map((link) =>
        String(link.json<{ results: { toObjectId: number }[] }>().results[0]?.toObjectId),
      );
      const [read] = await model.use(
        call('hubspot.hubspotBatchReadObjects', {
          objectType: 'companies',
          inputs: [...new Set(companyOf)].map((id) => ({ id })),
        }),
      );
      const names = new Map(
        read
          ?.json<{ results: CrmObject[] }>()
          .results.map((company) => [company.id, company.properties.name]),
      );
      const rows = deals.map(
        (deal, index) =>
          `| ${deal.properties.dealname} | $${Number(deal.properties.amount).toLocaleString('en-US')} | ${deal.properties.dealstage} | ${names.get(companyOf[index] ?? '')} |`,
      );
      const content = `# Open deals over $50k\n\n| Deal | Amount | Stage | Company |\n|---|---|---|---|\n${rows.join('\n')}\n`;
      await model.use(call('filesystem.write_file', { path: PATH, content }));
      return `${rows.length} open deals over $50k are in ${PATH}.`;
    },
  },
};
