/**
 * One `describe` answer's text for a chosen set of tools and types under a chosen plan (how deep
 * to inline, how much of each description to keep). The budget is not this module's business:
 * describe.ts tries plans and subsets until one fits.
 *
 * Layout, in order: `interface CallOptions` when a method uses it, and the HTTP answer's types
 * when an OpenAPI tool's method is shown (such a method takes `{ response: true }` to resolve to
 * `{ status, headers, body }`, and its type says so); in a terse answer with several untyped
 * methods, one line saying what they return, which is otherwise each one's `@returns`; per namespace, in order of first appearance, a `declare const <namespace>: { … }`
 * block with one method per tool, then a `declare namespace <namespace> { … }` block declaring
 * every type a line of the answer names:
 * requested types first, then the rest in the order they were reached, expanded as deep as the
 * plan allows; types the plan leaves unexpanded are declared `unknown` under a comment saying how
 * to expand them. Every name the answer uses is declared in it, so the answer compiles as it is.
 * Last, one comment line per namespace for what was requested and left out.
 *
 * Given `maxChars`, rendering stops as soon as the text is known to be longer (print-budget.ts),
 * so an answer that cannot fit costs what fits, not what the schemas would multiply into.
 */
import { type DocMode, docLines, jsdoc } from './jsdoc.ts';
import type { NamespaceModel, ToolModel } from './model.ts';
import { PrintBudget, within } from './print-budget.ts';
import { type PrintOptions, printType } from './print-type.ts';
import type { NamedType } from './ts-type.ts';

export interface Plan {
  /** Inner types are inlined down to this depth; a method's input is inlined at depth >= 1. */
  depth: number;
  docs: DocMode;
}

export type Item =
  | { kind: 'tool'; model: NamespaceModel; tool: ToolModel }
  | { kind: 'type'; model: NamespaceModel; type: NamedType };

const CALL_OPTIONS = `interface CallOptions {
\t/** A named connection of this source instead of its default. */
\tconnection?: string;
}
`;

/** The declarations an OpenAPI tool's method uses (the guest's bridge and CallOutcome.response). */
const HTTP_OPTIONS = `/** An HTTP API's methods take { response: true } to resolve to the whole answer instead of the body alone. */
interface HttpCallOptions extends CallOptions {
\tresponse?: boolean;
}
interface HttpResponse<Body> {
\tstatus: number;
\t/** Only content-type, retry-after, link and rate-limit headers, names in lowercase. */
\theaders: { [name: string]: string };
\tbody: Body;
}
type HttpAnswer<O, Body> = O extends { response: true } ? HttpResponse<Body> : Body;
`;

/** What the hub returns for a tool that declares no output schema: a line of each such method's JSDoc. */
const UNTYPED_RESULT =
  "@returns The tool's structured content when present, else its text parsed as JSON when it is JSON, else the text.";

/** The same, said once for the whole answer when the plan is terse (it would repeat on every method). */
const UNTYPED_RESULT_NOTE =
  "// Methods returning Promise<unknown> resolve to the tool's structured content when present, else its text parsed as JSON when it is JSON, else the text.\n";

/**
 * The answer showing `shown` under `plan`, with a note naming `omitted`; undefined when it would
 * be longer than `maxChars` (rendering stops there).
 */
export function renderAnswer(
  shown: readonly Item[],
  omitted: readonly Item[],
  plan: Plan,
  maxChars?: number,
): string | undefined {
  const budget = maxChars === undefined ? undefined : new PrintBudget(maxChars);
  return within(() => render(shown, omitted, plan, budget), undefined);
}

function render(
  shown: readonly Item[],
  omitted: readonly Item[],
  plan: Plan,
  budget: PrintBudget | undefined,
): string {
  const groups = new Map<NamespaceModel, Item[]>();
  for (const item of shown) groups.set(item.model, [...(groups.get(item.model) ?? []), item]);
  const tools = [...groups.values()].flat().flatMap((item) => (item.kind === 'tool' ? [item.tool] : []));
  let text = tools.length > 0 ? CALL_OPTIONS : '';
  if (tools.some(isHttp)) text += HTTP_OPTIONS;
  // Said once it is shorter than said on each untyped method (from two on).
  const once = plan.docs === 'terse' && tools.filter((tool) => tool.output === undefined).length > 1;
  if (once) text += UNTYPED_RESULT_NOTE;
  for (const [model, items] of groups) text += renderNamespace(model, items, plan, once, budget);
  const showing = new Set([...groups.keys()].map((model) => model.namespace));
  return text + omissionNote(omitted, Infinity, showing);
}

function renderNamespace(
  model: NamespaceModel,
  items: readonly Item[],
  plan: Plan,
  untypedSaid: boolean,
  budget: PrintBudget | undefined,
): string {
  const ns = model.namespace;
  /** Levels still to show of each named type reached, in the order reached. */
  const reach = new Map<NamedType, number>();
  const queue: NamedType[] = [];
  const reference = (node: NamedType, remaining: number) => {
    const seen = reach.get(node);
    if (seen !== undefined && seen >= remaining) return;
    reach.set(node, remaining);
    if (remaining > 0) queue.push(node);
  };
  const options = (qualifier: string, limit: number): PrintOptions => ({
    limit,
    docs: plan.docs,
    qualifier,
    line: false,
    reference,
    budget,
  });

  const requested: NamedType[] = [];
  for (const item of items) {
    if (item.kind === 'type') {
      requested.push(item.type);
      reference(item.type, Math.max(plan.depth, 1));
    }
  }
  const methods = items.flatMap((item) =>
    item.kind === 'tool' ? [printMethod(item.tool, plan, options(`${ns}.`, plan.depth), untypedSaid)] : [],
  );

  const declarations = new Map<NamedType, string>();
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    const remaining = reach.get(node) ?? 0;
    declarations.set(node, printDeclaration(node, options('', remaining)));
  }

  let text = methods.length > 0 ? `declare const ${ns}: {\n${methods.join('')}};\n` : '';
  const order = [...requested, ...[...reach.keys()].filter((node) => !requested.includes(node))];
  const expanded = order.flatMap((node) => declarations.get(node) ?? []);
  const stubs = order
    .filter((node) => !declarations.has(node))
    .map((node) => `\ttype ${node.name} = unknown;\n`);
  if (expanded.length + stubs.length > 0) {
    const header = `\t// Not expanded (budget); describe "${ns}.<Name>" for each:\n`;
    text += `declare namespace ${ns} {\n${expanded.join('')}${stubs.length > 0 ? header : ''}${stubs.join('')}}\n`;
  }
  return text;
}

function printMethod(tool: ToolModel, plan: Plan, options: PrintOptions, untypedSaid: boolean): string {
  const lines = docLines({ description: tool.tool.description }, plan.docs, 'tool');
  if (tool.output === undefined && !untypedSaid) lines.push(UNTYPED_RESULT);
  chargeLines(options, lines);
  let input: string;
  if (plan.depth >= 1) {
    input = printType(tool.input.type, options, 0, '\t', new Set([tool.input])).text;
  } else {
    options.reference(tool.input, 0);
    input = `${options.qualifier}${tool.input.name}`;
  }
  const output = tool.output === undefined ? 'unknown' : printType(tool.output, options, 0, '\t').text;
  const signature = isHttp(tool)
    ? `<O extends HttpCallOptions = CallOptions>(input: ${input}, options?: O): Promise<HttpAnswer<O, ${output}>>`
    : `(input: ${input}, options?: CallOptions): Promise<${output}>`;
  return `${jsdoc(lines, '\t')}\t${tool.method}${signature};\n`;
}

/** An OpenAPI tool (it calls an HTTP API): its answer has a status and headers. */
function isHttp(tool: ToolModel): boolean {
  return tool.tool.operation !== undefined;
}

function printDeclaration(node: NamedType, options: PrintOptions): string {
  const lines = docLines(node.doc, options.docs);
  chargeLines(options, lines);
  const doc = jsdoc(lines, '\t');
  const body = printType(node.type, options, 0, '\t', new Set([node])).text;
  return node.type.kind === 'object'
    ? `${doc}\tinterface ${node.name} ${body}\n`
    : `${doc}\ttype ${node.name} = ${body};\n`;
}

/** Charges JSDoc lines the output will hold. */
function chargeLines(options: PrintOptions, lines: readonly string[]): void {
  for (const line of lines) options.budget?.spend(line.length);
}

/**
 * One comment line per namespace naming what was requested and is not shown, each listing at most
 * `listMax` names. `showing`: namespaces the answer shows something of (the rest are "more").
 */
export function omissionNote(
  omitted: readonly Item[],
  listMax = Infinity,
  showing: ReadonlySet<string> = new Set(),
): string {
  const byNamespace = new Map<string, string[]>();
  for (const item of omitted) {
    const names = byNamespace.get(item.model.namespace) ?? [];
    names.push(item.kind === 'tool' ? item.tool.method : item.type.name);
    byNamespace.set(item.model.namespace, names);
  }
  let text = '';
  for (const [ns, names] of byNamespace) {
    const more = showing.has(ns) ? ' more' : '';
    const listed = names.length <= listMax ? names.join(', ') : `${names.slice(0, listMax).join(', ')}, …`;
    text += `// ${ns}: ${names.length}${more} not shown (budget): ${listed} — describe a few at a time, e.g. "${ns}.${names[0]}".\n`;
  }
  return text;
}
