import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../core/tokens.js';
import { excerpt, EXCERPT_TOKENS } from './excerpt.js';

const tokens = createTokenCounter('cl100k_base');
const advice = [
  'Build your weekly distance gradually, by no more than ten percent a week.',
  'Keep most of your runs at an easy, conversational pace.',
  'A long run once a week builds endurance more than anything else.',
  'Rest days are part of the plan, not a break from it.',
  'Strength work for the hips and calves helps prevent common running injuries.',
];
const long = `assistant: ${[...advice, ...advice, 'For the Porto half marathon in October, taper the last two weeks.', ...advice, ...advice].join(' ')}`;

describe('excerpt', () => {
  it('keeps a short memory whole', () => {
    expect(excerpt('user: I adopted a kitten.', 'what pet', 'evt_1', tokens)).toBe('user: I adopted a kitten.');
  });

  it('renders the sentences a query is about, in order, with the label and a pointer to the full memory', () => {
    const out = excerpt(long, 'When is the Porto half marathon?', 'evt_42', tokens);
    expect(out.startsWith('assistant: … For the Porto half marathon in October')).toBe(true);
    expect(out).toMatch(/\[excerpt, \d+ of \d+ words; full memory evt_42\]$/);
    expect(tokens.count(out)).toBeLessThan(EXCERPT_TOKENS + 30);
    expect(tokens.count(out)).toBeLessThan(tokens.count(long) / 3);
  });

  it('falls back to the opening when no sentence shares a word with the query', () => {
    const out = excerpt(long, 'zebra quantum', 'evt_7', tokens);
    expect(out.startsWith('assistant: Build your weekly distance gradually')).toBe(true);
    expect(out).toContain('full memory evt_7');
  });
});
