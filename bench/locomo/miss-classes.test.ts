import { describe, expect, it } from 'vitest';
import { classifyMisses, namedSpeakers, signalClass, type TurnInfo } from './miss-classes.js';

const turns = new Map<string, TurnInfo>([
  ['D1:1', { speaker: 'Ana', text: 'I went swimming with the kids today.', session: 1 }],
  ['D1:2', { speaker: 'Ben', text: 'Ana, what activities do you like?', session: 1 }],
  ['D2:1', { speaker: 'Ana', text: 'Pottery is my favourite of my activities.', session: 2 }],
  ['D3:1', { speaker: 'Ana', text: 'Hiking on Sunday was lovely.', session: 3 }],
  ...Array.from({ length: 20 }, (_, i): [string, TurnInfo] => [`D9:${i + 1}`, { speaker: 'Ben', text: `filler ${i}`, session: 9 }]),
]);
const fillers = (n: number) => Array.from({ length: n }, (_, i) => `D9:${i + 1}`);

describe('classifyMisses', () => {
  it('classes a turn ranked 11–20 as near, a deeper one by whether it shares a content word with the question', () => {
    const ranked = [...fillers(10), 'D2:1', ...fillers(20).slice(10)];
    const m = classifyMisses('What activities does Ana enjoy?', ['D1:1', 'D2:1', 'D3:1', 'D9:1'], ranked, turns);
    // D9:1 found; D2:1 at 11 (near); D1:1 and D3:1 not retrieved and share no content word ("Ana" is a name).
    expect(m.lost).toEqual({ near: 0.25, 'deep-shared': 0, 'deep-gap': 0.5 });
    expect(m.topSessions).toBe(1);
    expect(m.topByNamed).toBe(0);
    expect(m.evidenceByNamed).toBe(0.75);
  });

  it('counts a deep turn sharing a stem ("activities" / "activity") as deep-shared, and nothing when all are found', () => {
    const m = classifyMisses('Which activity did Ana mention?', ['D2:1'], fillers(20), turns);
    expect(m.lost['deep-shared']).toBe(1);
    const found = classifyMisses('Which activity did Ana mention?', ['D2:1'], ['D2:1', 'D1:1'], turns);
    expect(found.lost).toEqual({ near: 0, 'deep-shared': 0, 'deep-gap': 0 });
    expect(found.topSessions).toBe(2);
  });

  it('reads speakers as whole words and leaves the named-speaker figures out unless exactly one is named', () => {
    expect(namedSpeakers('Did Ana and Ben both swim?', ['Ana', 'Ben'])).toEqual(['Ana', 'Ben']);
    expect(namedSpeakers('What did Anabel say?', ['Ana'])).toEqual([]);
    expect(classifyMisses('Did Ana and Ben both swim?', ['D1:1'], ['D1:1'], turns).topByNamed).toBeUndefined();
  });
});

describe('signalClass', () => {
  const list = (n: number, at: number, id: string) => Array.from({ length: n }, (_, i) => (i === at ? id : `x${i}`));
  it('classes by the pools of 80 that hold the turn, and whether a signal had it in its top 10', () => {
    expect(signalClass('e', list(200, 120, 'e'), list(200, 90, 'e'))).toEqual({ cls: 'none', top: false });
    expect(signalClass('e', [], list(200, 3, 'e'))).toEqual({ cls: 'vector', top: true });
    expect(signalClass('e', list(200, 40, 'e'), list(200, 150, 'e'))).toEqual({ cls: 'lexical', top: false });
    expect(signalClass('e', list(200, 12, 'e'), list(200, 9, 'e'))).toEqual({ cls: 'both', top: true });
  });
});
