/** A join: the person's open deals closing in May, added to the Notion "Pipeline review" page. */
import type { CrmObject } from '../fixtures/services/hubspot-seed.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  addedBlocks,
  call,
  fail,
  listed,
  pageNamed,
  pass,
  resultOf,
  seedOf,
  touchedPages,
} from './workspace-world.ts';

const FILTERS = (owner: number) => [
  { propertyName: 'hubspot_owner_id', operator: 'EQ', value: String(owner) },
  {
    propertyName: 'closedate',
    operator: 'BETWEEN',
    value: '2026-05-01T00:00:00.000Z',
    highValue: '2026-05-31T23:59:59.999Z',
  },
  { propertyName: 'dealstage', operator: 'NOT_IN', values: ['closedwon', 'closedlost'] },
];

const wanted = () => {
  const { deals, ownerId } = seedOf().crm;
  return deals
    .filter(
      (deal) =>
        deal.properties.hubspot_owner_id === String(ownerId) &&
        (deal.properties.closedate ?? '').startsWith('2026-05') &&
        !['closedwon', 'closedlost'].includes(deal.properties.dealstage ?? ''),
    )
    .map((deal) => deal.properties.dealname ?? '');
};

const bullet = (deal: CrmObject) => ({
  type: 'bulleted_list_item',
  bulleted_list_item: {
    rich_text: [
      {
        type: 'text',
        text: {
          content: `${deal.properties.dealname}: $${deal.properties.amount}, closes ${deal.properties.closedate?.slice(0, 10)}`,
        },
      },
    ],
  },
});

export const task: EvalTask = {
  id: 'hubspot-deals-to-notion',
  prompt:
    'Add my open HubSpot deals that close in May to the "Pipeline review" page in Notion (name, amount, close date).',
  multiStep: true,
  traits: ['join', 'filter', 'approval'],
  sources: ['hubspot', 'notion'],
  check(world) {
    const page = pageNamed('Pipeline review');
    const text = addedBlocks(world, page.id)
      .map((block) => block.text)
      .join('\n');
    const want = wanted();
    const missing = want.filter((deal) => !text.includes(deal));
    if (missing.length > 0) return fail(`the page lacks ${listed(missing)}`);
    const extra = seedOf()
      .crm.deals.map((deal) => deal.properties.dealname ?? '')
      .filter((deal) => !want.includes(deal) && text.includes(deal));
    if (extra.length > 0) return fail(`deals that are not the person's open May deals: ${listed(extra)}`);
    const others = touchedPages(world).filter((title) => title !== page.title);
    if (others.length > 0) return fail(`other pages changed: ${listed(others)}`);
    return pass(`added ${listed(want)}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        [
          'hubspot current user owner id',
          'search hubspot deals',
          'search notion pages',
          'append blocks to a notion page',
        ],
        [
          'hubspot.hubspotGetUserDetails',
          'hubspot.hubspotSearchObjects',
          'notion.APIPostSearch',
          'notion.APIPatchBlockChildren',
        ],
      );
      const reply = await execute(
        model,
        `const me = await hubspot.hubspotGetUserDetails({});
const deals = (await hubspot.hubspotSearchObjects({ objectType: 'deals', limit: 100, properties: ['hubspot_owner_id'], filterGroups: [{ filters: ${JSON.stringify(FILTERS(0)).replace('"0"', 'String(me.ownerId)')} }] })).results;
const page = (await notion.APIPostSearch({ query: 'Pipeline review' })).results[0];
await notion.APIPatchBlockChildren({ block_id: page.id, children: deals.map((d) => ({ type: 'bulleted_list_item', bulleted_list_item: { rich_text: [{ type: 'text', text: { content: d.properties.dealname + ': $' + d.properties.amount + ', closes ' + d.properties.closedate.slice(0, 10) } }] } })) });
return deals.map((d) => d.properties.dealname);`,
      );
      return `Added ${resultOf<string[]>(reply).join(', ')} to Pipeline review.`;
    },
    async direct(model) {
      const [me, found] = await model.use(
        call('hubspot.hubspotGetUserDetails'),
        call('notion.APIPostSearch', { query: 'Pipeline review' }),
      );
      const owner = me?.json<{ ownerId: number }>().ownerId ?? 0;
      const pageId = found?.json<{ results: { id: string }[] }>().results[0]?.id;
      const [search] = await model.use(
        call('hubspot.hubspotSearchObjects', {
          objectType: 'deals',
          limit: 100,
          filterGroups: [{ filters: FILTERS(owner) }],
        }),
      );
      const deals = search?.json<{ results: CrmObject[] }>().results ?? [];
      await model.use(
        call('notion.APIPatchBlockChildren', { block_id: pageId, children: deals.map(bullet) }),
      );
      return `Added ${deals.map((deal) => deal.properties.dealname).join(', ')} to Pipeline review.`;
    },
  },
};
