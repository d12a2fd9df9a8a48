import { describe, expect, it } from 'vitest';
import { renderFacts } from './report.js';

const version = { text: 'When a report mentions x, check y.', confidence: 0.6, supportCount: 2, contradictCount: 0 };

describe('renderFacts', () => {
  it('marks a live version ●, a superseded one ○ and a retired rule\'s closing version (live, holding nowhere) as retired', () => {
    const lines = renderFacts([
      {
        key: 'heuristic:y',
        kind: 'heuristic',
        versions: [
          { ...version, version: 1, live: false },
          { ...version, version: 2, live: true, retired: 'condition_not_discriminating' },
        ],
      },
      { key: 'heuristic:z', kind: 'heuristic', versions: [{ ...version, version: 1, live: true }] },
    ]);
    const heads = lines.filter((l) => !l.startsWith('      '));
    expect(heads[0]).toMatch(/^ {2}○ heuristic heuristic:y v1 .*\(superseded\)$/);
    expect(heads[1]).toMatch(/^ {2}✕ heuristic heuristic:y v2 .*\(retired: condition not discriminating\)$/);
    expect(heads[1]).not.toContain('●');
    expect(heads[2]).toMatch(/^ {2}● heuristic heuristic:z v1 /);
    expect(heads[2]).not.toContain('(');
  });
});
