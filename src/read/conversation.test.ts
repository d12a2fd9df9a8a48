import { describe, expect, it } from 'vitest';
import { isPersonName } from '../core/speakers.js';
import { speakerForm } from '../write/document-vectors.js';
import { looksConversational } from './conversation.js';

const msg = (text: string) => ({ kind: 'event' as const, type: 'message', text });

describe('speakers', () => {
  it('tells a person from a role', () => {
    for (const p of ['Melanie', 'Dr. Ruiz', 'caroline']) expect(isPersonName(p)).toBe(true);
    for (const r of ['user', 'Assistant', 'assistant_2', 'SYSTEM', 'tool', undefined]) expect(isPersonName(r)).toBe(false);
  });

  it('resolves the first person of a person, never of a role', () => {
    expect(speakerForm('Melanie: Yeah, I play clarinet!')).toBe('Melanie: Yeah, Melanie play clarinet!');
    expect(speakerForm('user: I play the cello in my spare time.')).toBe('user: I play the cello in my spare time.');
    expect(speakerForm('assistant: I can help with that.')).toBe('assistant: I can help with that.');
  });
});

describe('looksConversational', () => {
  it('is true for turns of two or more named people', () => {
    expect(looksConversational([msg('Ana: I adopted a kitten.'), msg('Ben: Lovely!'), msg('Ana: She is grey.')])).toBe(true);
  });

  it('is false for user–assistant chats, one person, agent traces and documents', () => {
    expect(looksConversational([msg('user: I adopted a kitten.'), msg('assistant: Congratulations! Here are some tips…')])).toBe(false);
    expect(looksConversational([msg('Ana: I adopted a kitten.'), msg('assistant: Congratulations!'), msg('Ana: Thanks.')])).toBe(false);
    const trace = [
      { kind: 'event' as const, type: 'tool_call', text: 'shell: shell(cmd=npm test) → exit=1' },
      { kind: 'event' as const, type: 'observation', text: 'agent: the fixtures share a port' },
      msg('Ana: please fix it'),
      msg('Ben: on it'),
      { kind: 'event' as const, type: 'decision', text: 'agent: run serially' },
    ];
    expect(looksConversational(trace)).toBe(false);
    expect(looksConversational([{ kind: 'event', type: 'note', text: 'Refunds: annual plans are refundable within 30 days.' }])).toBe(false);
    expect(looksConversational([])).toBe(false);
  });
});
