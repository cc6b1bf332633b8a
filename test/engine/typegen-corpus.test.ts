/**
 * typegen on the real corpus (397 tools from 24 MCP servers). Every answer `describe` can give
 * for it — each namespace, each tool by address, and each namespace with no budget to speak of —
 * is compiled by TypeScript under `strict`, in one program, and must:
 *
 * - compile with zero diagnostics, and stay within its budget (`tokens` is the count of `text`);
 * - accept inputs the tool's schema accepts (json-schema-faker, seeded), written against the
 *   declared type: `const x: Parameters<typeof ns.tool>[0] = <json>;`;
 * - reject inputs the schema rejects where TypeScript can say so (typegen-samples.ts).
 *
 * (The samples themselves were checked against the schemas with a JSON Schema validator when this
 * test was written: every accepted one is valid, every rejected one invalid.)
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Manifest, ManifestTool } from '../../engine/contracts/sources.ts';
import { countTokens, type DescribeAnswer, describeTargets } from '../../engine/typegen/index.ts';
import { CORPUS_TOOL_COUNT, corpusManifests } from '../corpus.ts';
import { type Compilation, compile, formatDiagnostic, type SourceFile } from './typegen-compile.ts';
import { type Sample, samplesFor } from './typegen-samples.ts';

/** A budget no corpus namespace reaches: every type of every tool, expanded. */
const UNLIMITED = 10_000_000;

/** Diagnostics a rejected input may raise: assignability, missing and excess members. */
const REJECTION_CODES = new Set([2322, 2353, 2561, 2739, 2740, 2741]);

interface Answer {
  file: string;
  budget: number;
  answer: DescribeAnswer;
}

interface SampleLine {
  file: string;
  line: number;
  address: string;
  sample: Sample;
}

let manifests: Manifest[];
const answers: Answer[] = [];
const sampleLines: SampleLine[] = [];
let compilation: Compilation;
let seconds = 0;

/** Each tool's samples, made once (they are seeded: the same every time anyway). */
const samples = new Map<string, Sample[]>();
const samplesOf = (tool: ManifestTool): Sample[] => {
  const made = samples.get(tool.address) ?? samplesFor(tool.inputSchema);
  samples.set(tool.address, made);
  return made;
};

/** The answer's file: its text, then one typed constant per sample of each tool it shows. */
function answerFile(name: string, answer: DescribeAnswer, shownOf: Manifest[]): SourceFile {
  const lines = answer.text.split('\n');
  for (const manifest of shownOf) {
    for (const tool of manifest.tools) {
      if (answer.omitted.includes(tool.address)) continue;
      for (const sample of samplesOf(tool)) {
        const n = sampleLines.length;
        lines.push(`const _${n}: Parameters<typeof ${tool.address}>[0] = ${JSON.stringify(sample.value)};`);
        sampleLines.push({ file: name, line: lines.length, address: tool.address, sample });
      }
    }
  }
  return { name, text: lines.join('\n') };
}

beforeAll(async () => {
  manifests = await corpusManifests();
  const files: SourceFile[] = [];
  const add = (file: string, targets: string[], budget: number, shownOf: Manifest[]) => {
    const answer = describeTargets(manifests, targets, { budgetTokens: budget });
    answers.push({ file, budget, answer });
    files.push(answerFile(file, answer, shownOf));
  };
  for (const manifest of manifests) {
    add(`namespace.${manifest.namespace}.ts`, [manifest.namespace], 2500, [manifest]);
    add(`full.${manifest.namespace}.ts`, [manifest.namespace], UNLIMITED, [manifest]);
    for (const tool of manifest.tools) {
      const single = { ...manifest, tools: [tool] };
      add(`tool.${tool.address}.ts`, [tool.address], 2500, [single]);
    }
  }
  const started = performance.now();
  compilation = compile(files);
  seconds = (performance.now() - started) / 1000;
}, 120_000);

/** The compiled files are deleted after a clean run and kept when a check fails, to be read. */
let keep = false;
const keepOnFailure = () =>
  onTestFailed(() => {
    keep = true;
  });
afterAll(() => {
  if (keep) console.log(`typegen corpus files kept in ${compilation?.dir}`);
  else compilation?.remove();
});

describe('typegen on the real corpus', () => {
  it('answers for every namespace and every tool, none over budget, each counted exactly', () => {
    keepOnFailure();
    expect(manifests.flatMap((m) => m.tools)).toHaveLength(CORPUS_TOOL_COUNT);
    expect(answers).toHaveLength(2 * manifests.length + CORPUS_TOOL_COUNT);
    const over = answers.filter(({ answer, budget }) => answer.tokens > budget);
    expect(over.map((a) => `${a.file}: ${a.answer.tokens}`)).toEqual([]);
    for (const { answer } of answers) expect(answer.tokens).toBe(countTokens(answer.text));
  });

  it('shows every tool alone, and every namespace in full when the budget allows', () => {
    keepOnFailure();
    const partial = answers.filter((a) => a.file.startsWith('tool.') || a.budget === UNLIMITED);
    expect(partial.filter((a) => a.answer.omitted.length > 0).map((a) => a.file)).toEqual([]);
  });

  it('compiles every answer under strict with zero diagnostics', () => {
    keepOnFailure();
    console.log(
      `compiled ${answers.length} answers and ${sampleLines.length} samples in ${seconds.toFixed(1)} s`,
    );
    const rejected = new Set(sampleLines.filter((s) => !s.sample.accept).map((s) => `${s.file}:${s.line}`));
    const unexpected = compilation.diagnostics.filter((d) => !rejected.has(`${d.file}:${d.line}`));
    expect(unexpected.map(formatDiagnostic)).toEqual([]);
  });

  it('accepts what the schemas accept and rejects what they reject', () => {
    keepOnFailure();
    const byLine = new Map<string, number[]>();
    for (const d of compilation.diagnostics) {
      const key = `${d.file}:${d.line}`;
      byLine.set(key, [...(byLine.get(key) ?? []), d.code]);
    }
    const accepted = sampleLines.filter((s) => s.sample.accept);
    const rejected = sampleLines.filter((s) => !s.sample.accept);
    expect(accepted.length).toBeGreaterThanOrEqual(3 * 2 * CORPUS_TOOL_COUNT);
    expect(rejected.length).toBeGreaterThan(CORPUS_TOOL_COUNT);
    const wrong = sampleLines.filter((s) =>
      byLine.has(`${s.file}:${s.line}`) ? s.sample.accept : !s.sample.accept,
    );
    expect(wrong.map((s) => `${s.file}:${s.line} ${s.address} ${s.sample.label}`)).toEqual([]);
    const codes = new Set(rejected.flatMap((s) => byLine.get(`${s.file}:${s.line}`) ?? []));
    expect([...codes].filter((code) => !REJECTION_CODES.has(code))).toEqual([]);
  });
});
