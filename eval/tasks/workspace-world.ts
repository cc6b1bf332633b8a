/**
 * What the workspace tasks (notion, hubspot, github, filesystem) share: reading the end world
 * against each stand-in's seed (new and changed files, issues, comments, pages, blocks, CRM
 * records). The verdict shorthands, direct calls and `execute` results come from tracker-world.ts.
 */
import { type FilesystemState, filesystemSeed } from '../fixtures/services/filesystem.ts';
import {
  type GithubComment,
  type GithubIssue,
  type GithubState,
  githubSeed,
} from '../fixtures/services/github.ts';
import { type CrmObject, type HubspotState, hubspotSeed } from '../fixtures/services/hubspot-seed.ts';
import {
  type NotionBlock,
  type NotionPage,
  type NotionState,
  notionSeed,
} from '../fixtures/services/notion.ts';
import type { WorldView } from '../task.ts';

export { call, fail, listed, pass, resultOf, sameSet } from './tracker-world.ts';

let seeds: { fs: FilesystemState; gh: GithubState; crm: HubspotState; wiki: NotionState } | undefined;
/** The stand-ins' seeds (no workspace task changes them). */
export function seedOf() {
  seeds ??= { fs: filesystemSeed(), gh: githubSeed(), crm: hubspotSeed(), wiki: notionSeed() };
  return seeds;
}

/** Files the run wrote or changed, by path. */
export function changedFiles(world: WorldView): Record<string, string> {
  const { files } = world.state<FilesystemState>('filesystem');
  return Object.fromEntries(
    Object.entries(files).filter(([path, content]) => seedOf().fs.files[path] !== content),
  );
}

export const fileAt = (world: WorldView, path: string): string | undefined =>
  world.state<FilesystemState>('filesystem').files[path];

const issueKey = (issue: GithubIssue) => `${issue.repo}#${issue.number}`;

/** Issues the run created. */
export function newGithubIssues(world: WorldView): GithubIssue[] {
  const before = new Set(seedOf().gh.issues.map(issueKey));
  return world.state<GithubState>('github').issues.filter((issue) => !before.has(issueKey(issue)));
}

/** Seed issues whose title, body, state or labels the run changed, as they are now. */
export function changedGithubIssues(world: WorldView): GithubIssue[] {
  const before = new Map(seedOf().gh.issues.map((issue) => [issueKey(issue), issue]));
  return world.state<GithubState>('github').issues.filter((issue) => {
    const old = before.get(issueKey(issue));
    return (
      old !== undefined &&
      (old.title !== issue.title ||
        old.body !== issue.body ||
        old.state !== issue.state ||
        old.labels.join() !== issue.labels.join())
    );
  });
}

/** Comments the run added. */
export const newGithubComments = (world: WorldView): GithubComment[] =>
  world.state<GithubState>('github').comments.slice(seedOf().gh.comments.length);

export const githubIssue = (world: WorldView, repo: string, number: number) =>
  world.state<GithubState>('github').issues.find((issue) => issue.repo === repo && issue.number === number);

/** Pages the run created. */
export function newPages(world: WorldView): NotionPage[] {
  const before = new Set(seedOf().wiki.pages.map((page) => page.id));
  return world.state<NotionState>('notion').pages.filter((page) => !before.has(page.id));
}

export const pageNamed = (title: string) =>
  seedOf().wiki.pages.find((page) => page.title === title) as NotionPage;

/** Blocks the run added to an existing page (by title), and every block of a new page. */
export function addedBlocks(world: WorldView, pageId: string): NotionBlock[] {
  const now = world.state<NotionState>('notion').blocks[pageId] ?? [];
  return now.slice((seedOf().wiki.blocks[pageId] ?? []).length);
}

/** Seed pages the run added blocks to or changed. */
export function touchedPages(world: WorldView): string[] {
  const state = world.state<NotionState>('notion');
  return seedOf()
    .wiki.pages.filter((page) => {
      const now = state.pages.find((candidate) => candidate.id === page.id);
      return (
        (state.blocks[page.id] ?? []).length !== (seedOf().wiki.blocks[page.id] ?? []).length ||
        now?.title !== page.title ||
        now.archived
      );
    })
    .map((page) => page.title);
}

export const contacts = (world: WorldView): CrmObject[] => world.state<HubspotState>('hubspot').contacts;

/** Contacts the run created. */
export const newContacts = (world: WorldView): CrmObject[] =>
  contacts(world).slice(seedOf().crm.contacts.length);

/** Seed contacts whose properties the run changed (as they are now). */
export function changedContacts(world: WorldView): CrmObject[] {
  const before = seedOf().crm.contacts;
  return contacts(world).filter((contact, index) => {
    const old = before[index];
    return (
      old !== undefined &&
      JSON.stringify(old.properties) !==
        JSON.stringify({ ...contact.properties, lastmodifieddate: old.properties.lastmodifieddate })
    );
  });
}

/** Emails named in `text`. */
export const emailsIn = (text: string) => [
  ...new Set((text.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? []).map((email) => email.toLowerCase())),
];
