/** A join: the open bugs of acme/web listed on a new Notion page under Engineering. */
import type { GithubIssue } from '../fixtures/services/github.ts';
import { execute, findAndDescribe } from '../script-kit.ts';
import type { EvalTask } from '../task.ts';
import {
  addedBlocks,
  call,
  fail,
  listed,
  newPages,
  pageNamed,
  pass,
  resultOf,
  sameSet,
  seedOf,
} from './workspace-world.ts';

const wanted = () =>
  seedOf()
    .gh.issues.filter(
      (issue) => issue.repo === 'acme/web' && issue.state === 'open' && issue.labels.includes('bug'),
    )
    .map((issue) => `#${issue.number}`);

const item = (issue: { number: number; title: string }) => ({
  type: 'bulleted_list_item',
  bulleted_list_item: { rich_text: [{ type: 'text', text: { content: `#${issue.number} ${issue.title}` } }] },
});

export const task: EvalTask = {
  id: 'github-bugs-to-notion',
  prompt:
    'Make a Notion page under Engineering called "Open bugs: acme/web" that lists every open GitHub issue in acme/web labelled bug, with number and title.',
  multiStep: true,
  traits: ['join', 'approval'],
  sources: ['github', 'notion'],
  check(world) {
    const pages = newPages(world);
    if (pages.length !== 1) return fail(`expected one new page, found ${pages.length}`);
    const [page] = pages;
    if (page?.parent !== pageNamed('Engineering').id) return fail('the page is not under Engineering');
    if (!page.title.toLowerCase().includes('bugs')) return fail(`the page is titled "${page.title}"`);
    const text = addedBlocks(world, page.id)
      .map((block) => block.text)
      .join('\n');
    const listedIds = [...new Set(text.match(/#\d+/g) ?? [])];
    if (!sameSet(listedIds, wanted()))
      return fail(`the page lists ${listed(listedIds)}; the open bugs are ${listed(wanted())}`);
    return pass(`"${page.title}" lists ${listed(wanted())}`);
  },
  scripts: {
    async code(model) {
      await findAndDescribe(
        model,
        ['list github issues by label', 'search notion pages', 'create a notion page'],
        ['github.list_issues', 'notion.APIPostSearch', 'notion.APIPostPage'],
      );
      const reply = await execute(
        model,
        `const bugs = await github.list_issues({ owner: 'acme', repo: 'web', state: 'open', labels: ['bug'], per_page: 100 });
const parent = (await notion.APIPostSearch({ query: 'Engineering', filter: { property: 'object', value: 'page' } })).results
  .find((p) => p.properties.title.title[0].plain_text === 'Engineering');
const page = await notion.APIPostPage({
  parent: { page_id: parent.id },
  properties: { title: [{ text: { content: 'Open bugs: acme/web' } }] },
  children: bugs.map((i) => ({ type: 'bulleted_list_item', bulleted_list_item: { rich_text: [{ type: 'text', text: { content: '#' + i.number + ' ' + i.title } }] } })),
});
return { url: page.url, count: bugs.length };`,
      );
      const result = resultOf<{ url: string; count: number }>(reply);
      return `Listed ${result.count} open bugs on ${result.url}.`;
    },
    async direct(model) {
      const [bugs, found] = await model.use(
        call('github.list_issues', {
          owner: 'acme',
          repo: 'web',
          state: 'open',
          labels: ['bug'],
          per_page: 100,
        }),
        call('notion.APIPostSearch', { query: 'Engineering', filter: { property: 'object', value: 'page' } }),
      );
      const issues = bugs?.json<GithubIssue[]>() ?? [];
      const parent = found
        ?.json<{ results: { id: string; properties: { title: { title: { plain_text: string }[] } } }[] }>()
        .results.find((page) => page.properties.title.title[0]?.plain_text === 'Engineering');
      const [made] = await model.use(
        call('notion.APIPostPage', {
          parent: { page_id: parent?.id },
          properties: { title: [{ text: { content: 'Open bugs: acme/web' } }] },
          children: issues.map(item),
        }),
      );
      return `Listed ${issues.length} open bugs on ${made?.json<{ url: string }>().url}.`;
    },
  },
};
