/** examples/scopes.ts, the example docs/scopes.md shows, run as written. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scopesDemo } from '../../examples/scopes.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-scopes-example-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('examples/scopes.ts', () => {
  it("gives Carol her session, her memories and the shared policy, labelled, never Dave's; corrects by id with history", async () => {
    const out = await scopesDemo(join(dir, 'scopes.db'));
    expect(out.carol).not.toMatch(/Dave/);
    expect(out.layers).toMatchObject({
      'Any news on my refund?': 'session',
      'My order #1182 arrived damaged.': 'user',
      'Carol wants to be contacted by email only.': 'user',
      'Refund policy: damaged orders are refunded in full within 14 days.': 'shared',
    });
    expect(out.carol).toMatch(/Refund policy.*\[shared · /);
    // The rendered line docs/scopes.md quotes, up to its date (the example writes today).
    const quoted = /`(- Carol wants [^`]*\[user · [^`]*· )\d{4}-\d{2}-\d{2}\]`/.exec(readFileSync(new URL('../../docs/scopes.md', import.meta.url), 'utf8'))![1]!;
    expect(out.carol).toContain(quoted);
    expect(out.before).toBe('Carol wants to be contacted by email only.');
    expect(out.history).toEqual(['v1: Carol wants to be contacted by email only.', 'v2: Carol wants to be contacted by email or chat.']);
    expect(out.page).toEqual(['Carol wants to be contacted by email or chat.']);
  }, 60_000);
});
