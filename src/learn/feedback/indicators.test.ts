import { describe, expect, it } from 'vitest';
import { readUserMessage } from './indicators.js';

describe('readUserMessage', () => {
  it.each([
    ['Thanks, that was really helpful!', 'positive', 'none'],
    ['Perfect.', 'positive', 'none'],
    ['It works now, thank you!', 'positive', 'none'],
    ['That fixed it.', 'positive', 'none'],
    ["That's wrong, the flag lists stopped containers too.", 'negative', 'none'],
    ['Not helpful at all.', 'negative', 'none'],
    ["That's not what I asked.", 'negative', 'none'],
    ["That doesn't work, I still get the same error.", 'negative', 'none'],
    ['No, I meant the Python version', 'negative', 'query'],
    ['Thanks, but that is wrong.', 'negative', 'none'],
  ])('%s → %s feedback, request %s', (text, polarity, request) => {
    const r = readUserMessage(text);
    expect(r.cue?.polarity).toBe(polarity);
    expect(r.request).toBe(request);
  });

  it('never reads "not helpful" or "doesn\'t work" as praise', () => {
    expect(readUserMessage('This is not helpful.').cue?.polarity).toBe('negative');
    expect(readUserMessage("Great, but it doesn't work.").cue?.polarity).toBe('negative');
  });

  it('does not take a question about something wrong for a complaint', () => {
    const r = readUserMessage("What's wrong with my build config?");
    expect(r.cue).toBeUndefined();
    expect(r.request).toBe('query');
    expect(readUserMessage('Is that correct?').cue).toBeUndefined();
  });

  it('splits feedback off a message that also asks something new', () => {
    const r = readUserMessage('Perfect, thanks! Now how do I remove unused images?');
    expect(r.cue).toMatchObject({ polarity: 'positive' });
    expect(r.request).toBe('query');
    expect(r.rest).toBe('How do I remove unused images?');
  });

  it('recognises format, clarification and style requests as follow-ups, not queries', () => {
    for (const t of ['Can you give that as JSON?', 'As a table please', 'What do you mean by idempotent?', 'Make it shorter.', 'Explain that again']) {
      expect(readUserMessage(t).request, t).toBe('followup');
    }
  });

  it('ignores greetings and meta requests as queries; acknowledgements ask nothing', () => {
    expect(readUserMessage('hello').request).toBe('meta');
    expect(readUserMessage('What can you do?').request).toBe('meta');
    expect(readUserMessage('ok').request).toBe('none');
    expect(readUserMessage('Thanks for the help!').request).toBe('none');
  });

  it("treats a short answer to the agent's own question as a follow-up", () => {
    expect(readUserMessage('Ubuntu 22.04', { agentAsked: true }).request).toBe('followup');
    expect(readUserMessage('Ubuntu 22.04', { agentAsked: false }).request).toBe('query');
  });
});
