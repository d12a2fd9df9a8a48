/**
 * Every TypeScript block of README.md and docs/*.md type-checks against the package as a user imports it
 * (`engram`, `engram/client`, `engram/mcp` … resolved to src/), each block as its own module. A block that
 * continues an earlier one uses names it does not declare (`memory`, `KEY`, `model` …); those are declared for it
 * here, and only when the block does not declare them itself. Frameworks a user installs beside Engram and the
 * repository does not (`@ai-sdk/openai`, `@openai/agents`) are declared as modules of the right shape.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { docFiles, ROOT } from '../openapi.js';

export interface TsBlock {
  file: string;
  line: number;
  code: string;
}

/** The ```ts blocks of one Markdown text. */
export function tsBlocks(file: string, text: string): TsBlock[] {
  const fence = /^```ts\n([\s\S]*?)^```/gm;
  return [...text.matchAll(fence)].map((m) => ({ file, line: text.slice(0, m.index).split('\n').length + 1, code: m[1]! }));
}

/** Names a block may take from the blocks before it, each with the declaration it gets when it uses but does not declare it. */
const CONTINUED: { name: string; declaration: string }[] = [
  { name: 'openMemory', declaration: "import { openMemory } from 'engram';" },
  { name: 'memory', declaration: "declare const memory: import('engram').Memory;" },
  { name: 'KEY', declaration: 'declare const KEY: string;' },
  { name: 'model', declaration: "declare const model: ReturnType<typeof import('ai').wrapLanguageModel>;" },
  { name: 'prompt', declaration: 'declare const prompt: string;' },
  { name: 'app', declaration: "declare const app: import('hono').Hono;" },
  { name: 'tenantFromYourAuth', declaration: "declare function tenantFromYourAuth(c: import('hono').Context): string;" },
];

const PEERS = `
declare module '@ai-sdk/openai' { export function openai(modelId: string): Parameters<typeof import('ai').wrapLanguageModel>[0]['model']; }
declare module '@openai/agents' { export * from '@openai/agents-core'; }
`;

/** The module a block becomes: its code after the declarations of the names it continues. */
export function moduleOf(block: TsBlock): string {
  const uses = (name: string) => new RegExp(`(?<![\\w.'"])${name}\\b`).test(block.code);
  const declares = (name: string) => new RegExp(`\\b(?:const|let|function|class)\\s+${name}\\b|import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}`).test(block.code);
  const prelude = CONTINUED.filter(({ name }) => uses(name) && !declares(name)).map((c) => c.declaration);
  return `${prelude.join('\n')}\n${block.code}\nexport {};\n`;
}

const PATHS: Record<string, string[]> = {
  engram: ['src/index.ts'],
  'engram/client': ['src/client/index.ts'],
  'engram/server': ['src/surfaces/http/index.ts'],
  'engram/mcp': ['src/surfaces/mcp/index.ts'],
  'engram/postgres': ['src/adapters/storage/postgres/index.ts'],
  'engram/redis': ['src/adapters/cache/index.ts'],
  'engram/langgraph': ['src/integrations/langgraph/index.ts'],
  'engram/ai-sdk': ['src/integrations/ai-sdk/index.ts'],
  'engram/openai-agents': ['src/integrations/openai-agents/index.ts'],
};

/** Type-checks the blocks in one program; the problems, each named by the Markdown file and line of its block. */
export function typeCheckBlocks(blocks: readonly TsBlock[]): string[] {
  const dir = join(ROOT, '__doc_snippets__');
  const files = new Map(blocks.map((b, i) => [join(dir, `block${i}.ts`), { block: b, source: moduleOf(b) }]));
  const peers = join(dir, 'peers.d.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.es2024.string.d.ts'],
    noUncheckedIndexedAccess: true,
    types: ['node'],
    skipLibCheck: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    baseUrl: ROOT,
    paths: PATHS,
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  const virtual = (name: string) => (name === peers ? PEERS : files.get(name)?.source);
  host.getSourceFile = (name, lang, ...rest) => {
    const source = virtual(name);
    return source === undefined ? read(name, lang, ...rest) : ts.createSourceFile(name, source, lang);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual(name) !== undefined || exists(name);
  const program = ts.createProgram([...files.keys(), peers], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file ? files.get(d.file.fileName) : undefined;
    const where = at ? `${relative(ROOT, at.block.file)}:${at.block.line}` : (d.file?.fileName ?? 'program');
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${where} (module line ${line}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('the TypeScript blocks of README.md and docs/*.md', () => {
  const blocks = docFiles().flatMap((file) => tsBlocks(file, readFileSync(file, 'utf8')));

  it('finds the README quick start, the integrations and the scopes examples', () => {
    const files = new Set(blocks.map((b) => relative(ROOT, b.file)));
    for (const file of ['README.md', 'docs/integrations.md', 'docs/scopes.md', 'docs/learning.md', 'docs/mcp.md', 'docs/http.md']) expect(files).toContain(file);
    expect(blocks.length).toBeGreaterThanOrEqual(15);
  });

  it('declares for a block only the names it uses and does not declare', () => {
    const mod = moduleOf({ file: 'x.md', line: 1, code: "import { openMemory } from 'engram';\nconst memory = await openMemory({});\nawait memory.search({ query: KEY });\n" });
    expect(mod).toContain('declare const KEY');
    expect(mod).not.toContain('declare const memory');
    expect(mod.match(/import \{ openMemory \}/g)).toHaveLength(1);
  });

  // One program for all (building it takes most of the time): the doc blocks and a bad block it must report.
  const bad: TsBlock = { file: join(ROOT, 'x.md'), line: 7, code: "import { openMemory } from 'engram';\nconst memory = await openMemory({ storag: {} });\n" };
  let problems: string[] | undefined;
  const check = () => (problems ??= typeCheckBlocks([...blocks, bad]));

  it('reports a block that calls what the package does not have, at its Markdown line', () => {
    expect(check().filter((p) => p.startsWith('x.md:')).join('\n')).toMatch(/^x\.md:7 .*storag/);
  }, 180_000);

  it('type-checks every block', () => {
    expect(check().filter((p) => !p.startsWith('x.md:'))).toEqual([]);
  }, 180_000);
});
