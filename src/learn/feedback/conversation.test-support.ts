/** Test support (not a test): scripted conversations for the analysis tests. */
import type { TurnInput } from './input.js';

/**
 * A session with a correction, a format follow-up, tool use, a conversation the user moves on from and a last
 * one nobody judged yet:
 *   1. docker containers: wrong answer (-a) → corrected → right answer → "Perfect, thanks!"
 *   2. unused images: answer → "as JSON" follow-up → JSON answer → "Great, that's helpful."
 *   3. capital of France → the user moves on without judging
 *   4. capital of Germany → no reply yet
 */
export const DOCKER_SESSION: TurnInput[] = [
  { role: 'user', content: 'How do I list all running Docker containers?' },
  { role: 'assistant', content: 'Use `docker ps -a`.' },
  { role: 'user', content: "That's wrong, -a shows stopped ones too. I only want running ones." },
  { role: 'assistant', content: 'Use `docker ps` without flags: it lists only running containers.' },
  { role: 'user', content: 'Perfect, thanks! Now how do I remove unused images?' },
  { role: 'tool', content: 'docker image prune --help', tool: 'search_docs' },
  { role: 'assistant', content: 'Run `docker image prune -a` and confirm with y.' },
  { role: 'user', content: 'Can you give that as a JSON list of steps?' },
  { role: 'assistant', content: '{"steps": ["docker image prune -a", "confirm with y"]}' },
  { role: 'user', content: "Great, that's helpful." },
  { role: 'assistant', content: "You're welcome!" },
  { role: 'user', content: 'What is the capital of France?' },
  { role: 'assistant', content: 'Paris.' },
  { role: 'user', content: 'What is the capital of Germany?' },
  { role: 'assistant', content: 'Berlin.' },
];

/** Six judged conversations; only the last four may be analysed. */
export function sixJudgedConversations(): TurnInput[] {
  const topics = ['sort a list in Python', 'reverse a string in Go', 'parse JSON in Rust', 'read a file in Java', 'open a socket in C', 'format a date in Ruby'];
  return topics.flatMap((topic, i): TurnInput[] => [
    { role: 'user', content: `How do I ${topic}?` },
    { role: 'assistant', content: `Here is how to ${topic} (answer ${i + 1}).` },
    { role: 'user', content: i % 2 === 0 ? 'Thanks, that works.' : "That's wrong." },
  ]);
}
