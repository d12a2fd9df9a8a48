import { describe, expect, it } from 'vitest';
import { contentImportance, explainImportance } from './importance.js';

describe('importance from content', () => {
  it('ranks an emergency far above routine chatter of the same type', () => {
    const fire = contentImportance('observation', 'The house is on fire!');
    const toast = contentImportance('observation', 'Ate toast');
    expect(fire).toBeGreaterThanOrEqual(0.6);
    expect(toast).toBeLessThanOrEqual(0.2);
    expect(fire - toast).toBeGreaterThan(0.4);
  });

  it('raises urgency, stakes, first-person commitments and emotion, each once', () => {
    const plain = contentImportance('message', 'The meeting moved to the blue room.');
    expect(plain).toBe(0.4);
    expect(explainImportance('message', 'This is urgent, the release is due today').signals).toContain('urgency');
    expect(explainImportance('message', 'We lost $20k in revenue from customers').signals).toContain('stakes');
    expect(explainImportance('message', "I promise I'll send the contract tomorrow").signals).toEqual(expect.arrayContaining(['commitment', 'stakes']));
    expect(explainImportance('message', "I'm allergic to peanuts").signals).toEqual(['commitment']);
    expect(explainImportance('message', 'I am so worried about my dad').signals).toEqual(['emotion']);
    expect(contentImportance('message', "I'm allergic to peanuts")).toBeGreaterThan(plain);
  });

  it('ignores acronyms and code-like capitals as emphasis, and stays within 0.05..1', () => {
    expect(explainImportance('tool_result', 'GET /api returned JSON from the SQL view').signals).toEqual([]);
    expect(explainImportance('note', 'DO NOT deploy on Fridays').signals).toContain('emphasis');
    expect(contentImportance('correction', 'URGENT: the prod database was breached, customers data lost! I will call the CEO now')).toBe(1);
    expect(contentImportance('observation', 'ok')).toBeGreaterThanOrEqual(0.05);
  });
});
