import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestMemory, type TestMemory } from '../surfaces/mcp/memory.test-support.js';

const open: TestMemory[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

describe('JSONL export and import of the knowledge graph', () => {
  it('exports every entity and relation (closed ones too) and imports them back, idempotently', async () => {
    const a = await openTestMemory();
    open.push(a);
    await a.memory.graph.createEntities([{ name: 'Alice', entityType: 'person', observations: ['Speaks Portuguese'] }]);
    await a.memory.graph.createRelations([{ from: 'Alice', to: 'Lisbon', relationType: 'lives_in', exclusive: true }]);
    await a.memory.graph.createRelations([{ from: 'Alice', to: 'Porto', relationType: 'lives_in', exclusive: true }]);
    const lines = [];
    for await (const l of a.memory.exportRecords()) lines.push(l);
    expect(lines.filter((l) => l.record === 'entity').map((l) => (l as { name: string }).name)).toEqual(['Alice', 'Lisbon', 'Porto']);
    const relations = lines.filter((l) => l.record === 'relation') as { expiredAt?: number }[];
    expect(relations.map((r) => r.expiredAt !== undefined)).toEqual([true, false]);

    const file = join(a.dir, 'export.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const b = await openTestMemory();
    open.push(b);
    await b.memory.importJsonl(file);
    await b.memory.importJsonl(file);
    const history = await b.memory.graph.relations({ entity: 'Alice', includeExpired: true });
    expect(history.map((r) => [r.to, r.expiredAt !== undefined])).toEqual([
      ['Lisbon', true],
      ['Porto', false],
    ]);
    expect((await b.memory.graph.readGraph()).entities.map((e) => e.name)).toEqual(['Alice', 'Lisbon', 'Porto']);
  });
});
