import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { transpileTree } from './transpile.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-transpile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A small repository: a module graph with `.js` specifiers, a package, a fixture read by path, a test file. */
function fixtureRepo(): string {
  const root = join(dir, 'repo');
  write(root, 'package.json', JSON.stringify({ type: 'module' }));
  write(root, 'node_modules/left-pad/package.json', JSON.stringify({ name: 'left-pad', type: 'module', exports: './index.js' }));
  write(root, 'node_modules/left-pad/index.js', "export const pad = (s, n) => s.padStart(n, '.');\n");
  write(root, 'dist-ui/index.html', '<p>ui</p>');
  write(root, 'src/kinds.ts', 'export enum Kind { Event = 1, Fact = 2 }\nexport type Label = string;\n');
  write(
    root,
    'src/app/main.ts',
    [
      "import { readFileSync } from 'node:fs';",
      "import { pad } from 'left-pad';",
      "import { Kind, type Label } from '../kinds.js';",
      'class Counter { n = Kind.Fact; constructor(private readonly step: number) {} next(): number { return (this.n += this.step); } }',
      "const label: Label = readFileSync(new URL('./words.txt', import.meta.url), 'utf8').trim();",
      "const ui = readFileSync(new URL('../../dist-ui/index.html', import.meta.url), 'utf8');",
      'console.log(JSON.stringify({ label: pad(label, 6), next: new Counter(3).next(), ui }));',
      '',
    ].join('\n'),
  );
  write(root, 'src/app/words.txt', 'word\n');
  write(root, 'src/app/main.test.ts', "throw new Error('a test file is not transpiled');\n");
  write(root, 'src/types.d.ts', 'declare const x: number;\n');
  return root;
}

describe('transpileTree', () => {
  it('writes runnable ES modules beside copies of the other files, resolving packages and fixtures as in the repository', async () => {
    const root = fixtureRepo();
    const out = join(dir, 'out');
    write(out, 'stale.js', 'left from an earlier run');
    expect(await transpileTree(root, out, ['src'])).toBe(2);
    expect(existsSync(join(out, 'stale.js'))).toBe(false);
    expect(existsSync(join(out, 'src/app/main.test.js'))).toBe(false);
    expect(readFileSync(join(out, 'src/app/main.js'), 'utf8')).toContain('"../kinds.js"');
    const printed = execFileSync(process.execPath, [join(out, 'src/app/main.js')], { encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual({ label: '..word', next: 5, ui: '<p>ui</p>' });
  });
});
