/**
 * `npm run bench:relations`: the relation QA set (bench/fixtures/relations): the share of questions whose
 * supporting memory is in the first three items of getContext, overall and by category (single-hop, direction,
 * multi-hop, as-of).
 */
import { print, requireData, run } from '../cli.js';
import { suiteCommand, type SuiteOptions } from '../lib/eval-suite.js';
import { DEFAULT_RELATIONS_DIR, loadRelationSet } from './fixtures.js';
import { renderRelations } from './report.js';
import { runRelations } from './run.js';

const program = suiteCommand(
  'bench:relations',
  "relation QA: the answer's supporting memory in the top 3 of getContext (bench/fixtures/relations/README.md)",
  'list every question missed with its hop ranks and first three items',
);

run(async () => {
  const o = program.parse(process.argv).opts<SuiteOptions>();
  const dir = o.fixtures === undefined ? DEFAULT_RELATIONS_DIR : requireData('fixtures', o.fixtures, 'a folder of relation QA files');
  const set = loadRelationSet(dir).filter((c) => o.only === undefined || c.id.includes(o.only));
  const report = await runRelations(set, {
    onConversation: (rs, c) => {
      if (!o.json) process.stderr.write(`${c.id}: top-3 ${rs.filter((r) => r.top3).length}/${rs.length}\n`);
    },
  });
  print(o.json, report, () => renderRelations(report, { verbose: o.verbose }));
});
