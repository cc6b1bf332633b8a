/**
 * Asked as a person asks: "put the Atlas platform renewal, with its amount and stage, on the
 * agenda for Friday's pipeline review". A join: the deal found in the CRM by its words, one line
 * for it appended to the Pipeline review page; no other page touched, the CRM unchanged.
 */
import type { CrmObject } from '../fixtures/services/hubspot-seed.ts';
import { execute, findByAsking, seekIn } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  addedBlocks,
  call,
  fail,
  pageNamed,
  pass,
  resultOf,
  seedOf,
  touchedPages,
} from './workspace-world.ts';

const PROMPT =
  "put the Atlas platform renewal, with its amount and stage, on the agenda for Friday's pipeline review";
const DEAL_SEARCH = 'hubspot.hubspotSearchObjects';
const PAGE_TOOLS = ['notion.APIPostSearch', 'notion.APIPatchBlockChildren'];
const DEALS = { objectType: 'deals', query: 'Atlas', limit: 10 };
const PAGES = { query: 'pipeline review' };
const HUBSPOT_READS = ['hubspot-search-objects', 'hubspot-list-objects', 'hubspot-batch-read-objects'];

/** `Appointment scheduled` as the CRM spells it, `appointmentscheduled`. */
const squashed = (text: string) => text.toLowerCase().replace(/[\s_-]/g, '');
const agendaLine = (deal: CrmObject) =>
  `${deal.properties.dealname}: $${Number(deal.properties.amount).toLocaleString('en-US')}, stage ${deal.properties.dealstage}`;
const bullet = (text: string) => ({
  object: 'block',
  type: 'bulleted_list_item',
  bulleted_list_item: { rich_text: [{ type: 'text', text: { content: text } }] },
});

export const task: EvalTask = {
  id: 'ask-pipeline-agenda',
  prompt: PROMPT,
  multiStep: true,
  traits: ['outcome', 'join', 'approval'],
  sources: ['hubspot', 'notion'],
  check(world) {
    const deal = seedOf().crm.deals.find(
      (candidate) => candidate.properties.dealname === 'Platform renewal Atlas',
    );
    const { amount = '?', dealstage = '?' } = deal?.properties ?? {};
    const review = pageNamed('Pipeline review');
    const added = addedBlocks(world, review.id).map((block) => block.text.replace(/(\d),(\d)/g, '$1$2'));
    if (added.length === 0) return fail('nothing was added to the Pipeline review page');
    const named = added.filter((text) => /platform renewal atlas|atlas platform renewal/i.test(text));
    if (named.length !== 1) return fail(`the review names the Atlas platform renewal ${named.length} times`);
    const [text = ''] = named;
    if (!text.includes(amount) || !squashed(text).includes(dealstage))
      return fail(`the agenda line "${text}" lacks the amount (${amount}) or the stage (${dealstage})`);
    const touched = touchedPages(world).filter((title) => title !== review.title);
    if (touched.length > 0) return fail(`other pages changed: ${touched.join(', ')}`);
    const writes = world.calls('hubspot').filter((record) => !HUBSPOT_READS.includes(record.tool));
    if (writes.length > 0) return fail(`the CRM was changed (${writes[0]?.tool})`);
    return pass(`the Pipeline review lists "${text}"`);
  },
  scripts: {
    async code(model) {
      // The CRM's search by its words (else hubspot's list), then Notion's list (search, append blocks).
      await findByAsking(
        model,
        PROMPT,
        [DEAL_SEARCH, ...PAGE_TOOLS],
        [
          ...seekIn('hubspot', [DEAL_SEARCH], [{ query: 'search objects', namespace: 'hubspot' }]),
          ...seekIn('notion', PAGE_TOOLS),
        ],
      );
      const reply = await execute(
        model,
        `const [deals, pages] = await Promise.all([
  hubspot.hubspotSearchObjects(${JSON.stringify(DEALS)}),
  notion.APIPostSearch(${JSON.stringify(PAGES)}),
]);
const deal = deals.results.find((d) => /platform renewal/i.test(d.properties.dealname));
const page = pages.results[0];
const text = deal.properties.dealname + ': $' + Number(deal.properties.amount).toLocaleString('en-US') + ', stage ' + deal.properties.dealstage;
await notion.APIPatchBlockChildren({ block_id: page.id, children: [{ object: 'block', type: 'bulleted_list_item', bulleted_list_item: { rich_text: [{ type: 'text', text: { content: text } }] } }] });
return text;`,
      );
      return `Added to Friday's pipeline review: ${resultOf<string>(reply)}.`;
    },
    async direct(model) {
      const [deals, pages] = await model.use(
        call('hubspot.hubspotSearchObjects', DEALS),
        call('notion.APIPostSearch', PAGES),
      );
      const deal = deals
        ?.json<{ results: CrmObject[] }>()
        .results.find((candidate) => /platform renewal/i.test(candidate.properties.dealname ?? ''));
      const page = pages?.json<{ results: { id: string }[] }>().results[0];
      const text = deal ? agendaLine(deal) : '';
      await model.use(call('notion.APIPatchBlockChildren', { block_id: page?.id, children: [bullet(text)] }));
      return `Added to Friday's pipeline review: ${text}.`;
    },
  },
};
