/**
 * `npm run bench:conversations`: the multi-session agent conversation set (bench/fixtures/conversations): for
 * each checkpoint, the share of expected items present and of forbidden items absent in
 * `getContext(query, { tenant, scope: { user_id, session_id } })`, overall and per domain.
 */
import { Option } from 'commander';
import { print, requireData, run } from '../cli.js';
import { suiteCommand, type SuiteOptions } from '../lib/eval-suite.js';
import { DEFAULT_FIXTURES_DIR, loadConversations } from './fixtures.js';
import { renderConversations } from './report.js';
import { runConversations, SCOPE_MODES, type ScopeMode } from './run.js';

const program = suiteCommand(
  'bench:conversations',
  'multi-session agent conversations: expected items present and forbidden items absent in getContext (bench/fixtures/conversations/README.md)',
  'list every missing and every forbidden item found',
).addOption(
  new Option('--scope <mode>', 'the caller identity passed: session (the documented call: user and session), or the diagnostics user (user only) and tenant (no scope)')
    .choices(SCOPE_MODES)
    .default('session'),
);

run(async () => {
  const o = program.parse(process.argv).opts<SuiteOptions & { scope: ScopeMode }>();
  const dir = o.fixtures === undefined ? DEFAULT_FIXTURES_DIR : requireData('fixtures', o.fixtures, 'a folder of conversation files');
  const conversations = loadConversations(dir).filter((c) => o.only === undefined || c.id.includes(o.only));
  const report = await runConversations(conversations, {
    scope: o.scope,
    onConversation: (rs, c) => {
      if (o.json) return;
      const req = rs.flatMap((r) => r.required);
      const forb = rs.flatMap((r) => r.forbidden);
      process.stderr.write(`${c.id}: present ${req.filter((x) => x.ok).length}/${req.length}, absent ${forb.filter((x) => x.ok).length}/${forb.length}\n`);
    },
  });
  print(o.json, report, () => renderConversations(report, { verbose: o.verbose }));
});
