/**
 * Layered scopes, time and memories by id (docs/scopes.md), on a SQLite file:
 *
 *   npx tsx examples/scopes.ts /tmp/scopes.db
 *
 * A support agent talks to Carol and to Dave. Carol's context in her second session holds that session's turns,
 * her earlier session and her preferences, and the shared refund policy, each labelled with its layer; nothing
 * of Dave's. Then a memory is corrected by id, read as it was before, and traced through its versions.
 */
import { openMemory } from 'engram';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function scopesDemo(dbPath: string): Promise<{ carol: string; layers: Record<string, string>; before: string; history: string[]; page: string[] }> {
  const memory = await openMemory({ storage: { url: `sqlite:${dbPath}` }, embedder: { provider: 'use-lite', workers: 0 } });
  try {
    // Shared knowledge (no user): every user of the tenant reads it.
    await memory.remember({ text: 'Refund policy: damaged orders are refunded in full within 14 days.', source: 'policy.md' });
    // Per-user memories and turns.
    await memory.remember({ text: 'Carol wants to be contacted by email only.', userId: 'carol', kind: 'preference' });
    await memory.logEvent({ userId: 'carol', sessionId: 's1', actor: 'user', content: 'My order #1182 arrived damaged.' });
    await memory.logEvent({ userId: 'dave', sessionId: 's9', actor: 'user', content: 'Dave: please call me on the phone.' });
    await memory.logEvent({ userId: 'carol', sessionId: 's2', actor: 'user', content: 'Any news on my refund?' });
    await memory.flush();

    // Who is asking: Carol, in session s2. Layered by default: session + user + agent + shared layers.
    const ctx = await memory.getContext('refund for a damaged order, how to contact the customer', {
      scope: { user_id: 'carol', session_id: 's2' },
    });
    const layers = Object.fromEntries(ctx.items.map((i) => [i.text, i.layer ?? '']));

    // Correct a memory by id: a new version of the same lineage; the old one leaves search but stays as history.
    const [pref] = (await memory.list({ userId: 'carol', kinds: ['preference'] })).memories;
    const recordedBefore = Date.now();
    await new Promise((r) => setTimeout(r, 5));
    await memory.memories.update(pref!.id, { text: 'Carol wants to be contacted by email or chat.' });
    const before = await memory.memories.get(pref!.id, { knownAt: recordedBefore });
    const history = (await memory.memories.history(pref!.id)).map((f) => `v${f.version}: ${f.text}`);
    const page = (await memory.list({ userId: 'carol', limit: 10 })).memories.map((f) => f.text);
    return { carol: ctx.text, layers, before: before.text, history, page };
  } finally {
    await memory.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const out = await scopesDemo(process.argv[2] ?? 'scopes.db');
  console.log(out.carol, '\n');
  console.log(out.layers, '\n', out.before, '\n', out.history, '\n', out.page);
}
