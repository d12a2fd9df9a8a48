/** docs/filters.md's table of built-in fields says what the parser and the write path accept. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FILTER_COLUMNS, parseFilter } from './filter.js';
import { ACTORS, DOC_KINDS, EVENT_TYPES } from './types.js';

const doc = readFileSync(new URL('../../docs/filters.md', import.meta.url), 'utf8');

/** The cells (field, type, holds) of the table row whose first cell names `field`. */
function row(field: string): { type: string; holds: string } {
  const line = doc.split('\n').find((l) => l.startsWith('| ') && l.split('|')[1]!.includes(`\`${field}\``));
  expect(line, field).toBeDefined();
  const cells = line!.split('|');
  return { type: cells[2]!.trim(), holds: cells[3]! };
}

describe('docs/filters.md', () => {
  it('has a row for every built-in field, with its type', () => {
    for (const [field, type] of Object.entries(FILTER_COLUMNS)) expect(row(field).type, field).toBe(type);
  });

  it('lists every event type, actor and kind a memory can have', () => {
    for (const [field, values] of [['type', EVENT_TYPES], ['actor', ACTORS], ['kind', DOC_KINDS]] as const) {
      expect(values.filter((v) => !row(field).holds.includes(`\`${v}\``)), field).toEqual([]);
    }
  });

  it('parses every filter the page shows, and refuses the bad one with the message it quotes', () => {
    const blocks = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
    const filters = blocks.filter((b) => !b.includes('"error"')).flatMap((b) => b.split('\n').filter((l) => l.trim()));
    expect(filters.length).toBeGreaterThanOrEqual(4);
    for (const f of filters) expect(() => parseFilter(JSON.parse(f), 'filter'), f).not.toThrow();
    const quoted = JSON.parse(`"${/"message": "((?:[^"\\]|\\.)*)"/.exec(blocks.find((b) => b.includes('"error"'))!)![1]!}"`) as string;
    expect(() => parseFilter({ importance: { above: 0.7 } }, 'filter')).toThrow(quoted);
  });
});
