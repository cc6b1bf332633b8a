/**
 * What `hub add` was given, judged before anything runs (issue #40): a source given without `--`
 * is a URL or a document's path, never a command line (a stdio server's command goes after
 * `--`). So a URL with a mistyped scheme (`htp://…`), one without a scheme (`mcp.example.com/mcp`)
 * or a path to a file that does not exist is named with what is wrong with it, instead of being
 * started as a program called "htp://…". A file that is there is read as a document, whatever its
 * name, and adding it says what is wrong with it when it is not one.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { editDistance } from '../../engine/closest.ts';
import { HubError } from '../../engine/errors.ts';

/** Throws what is wrong with `parts` given before `--`; returns when it may be a URL or a document. */
export function judgeSourceRef(parts: readonly string[], afterDashes: boolean): void {
  if (afterDashes) return;
  const [given, ...more] = parts;
  const asCommand = `To add a stdio server, put its command line after --: \`capabilities hub add -- ${parts.join(' ')}\`.`;
  if (given === undefined)
    throw new HubError(
      'invalid_input',
      `hub add takes a URL, an OpenAPI document, or -- and a command line.`,
    );
  if (more.length > 0) {
    throw new HubError(
      'invalid_input',
      `hub add takes one URL or document, and was given ${parts.length} words. ${asCommand}`,
    );
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(given)?.[1];
  if (scheme !== undefined && !/^[a-z]:$/i.test(`${scheme}:`)) {
    if (/^https?$/i.test(scheme)) return;
    throw new HubError(
      'invalid_input',
      `${given} is not an http(s) URL (its scheme is "${scheme}"): a source is reached over https:// (or http:// on your own machine).${nearHttp(scheme, given)}`,
    );
  }
  if (/^[\w-]+(\.[\w-]+)+(:\d+)?(\/\S*)?$/.test(given) && !existsSync(resolve(given))) {
    throw new HubError(
      'invalid_input',
      `${given} has no scheme and is no file here. Did you mean https://${given}?`,
    );
  }
  if (/[/\\]|^\.|^~|\.(json|ya?ml)$/i.test(given)) {
    if (!existsSync(resolve(given))) {
      throw new HubError(
        'invalid_input',
        `there is no file at ${resolve(given)} to read as an OpenAPI document. Check the path.`,
      );
    }
    mustBeFile(given, asCommand);
    return;
  }
  if (existsSync(resolve(given))) {
    mustBeFile(given, asCommand);
    return;
  }
  throw new HubError('invalid_input', `${given} is not a URL or a file here. ${asCommand}`);
}

/** Returns when `given` is a file (a document to read); throws for a folder. */
function mustBeFile(given: string, asCommand: string): void {
  if (statSync(resolve(given)).isFile()) return;
  throw new HubError(
    'invalid_input',
    `${resolve(given)} is a folder, not an OpenAPI document. Name the document's file, or: ${asCommand}`,
  );
}

/** ` Did you mean https://…?` when `scheme` is one letter off http or https. */
function nearHttp(scheme: string, given: string): string {
  const rest = given.slice(scheme.length + 1).replace(/^\/*/, '');
  const near = ['http', 'https'].find((word) => editDistance(scheme.toLowerCase(), word) <= 1);
  return near === undefined ? '' : ` Did you mean ${near}://${rest}?`;
}
