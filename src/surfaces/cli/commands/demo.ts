import type { Command } from 'commander';
import { DEPLOY_TASK, SUPPORT_SESSION, deployEvents, policyChunks, supportTurns } from '../../../demo/seed000.js';
import { withMemory } from '../context.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('load a demo (a deployment timeline, a support chat, a policy knowledge base) and run three reads: replay a task, recall a policy, and both merged in one budgeted context')
    .action(async (_o: unknown, cmd: Command) => {
      await withMemory(cmd, 'ingest', async (m, g) => {
        const out = (s: string) => process.stdout.write(`${s}\n`);
        out(`Engram demo on ${g.db}: loading a deploy timeline, a support chat and ${policyChunks.length} policy chunks…`);
        await m.logEvents(deployEvents.map((e) => ({ ...e, source: 'demo' })));
        await m.logEvents(supportTurns.map((e) => ({ ...e, source: 'demo' })));
        for (const p of policyChunks) await m.remember(p);
        out('Embedding in the background (first run loads the model)…');
        await m.flush();

        out(`\n1) Episodic replay: the last 5 events of ${DEPLOY_TASK}\n`);
        for (const e of await m.fetchEvents({ taskId: DEPLOY_TASK, lastN: 5 })) out(`  ${new Date(e.ts).toISOString()}  ${e.type}  ${e.content}`);

        out('\n2) Semantic recall: top 3 policy snippets about refunds for annual plans\n');
        const hits = await m.search({ query: 'refund rules for yearly subscriptions', k: 3, kinds: ['fact'], filter: { tags: ['policy'] } });
        for (const h of hits) out(`  [${h.doc.source} §${h.doc.section}] ${h.doc.text}`);

        out('\n3) Hybrid merge: last 4 turns of the chat + password-reset policy, within 400 tokens\n');
        const ctx = await m.getContext('The customer cannot log in and wants to reset the password', {
          episodic_window: { mode: 'last_n_events', n: 4, filters: { session_id: SUPPORT_SESSION } },
          semantic_retrieval: { top_k: 3, filters: { tags: ['policy'] }, kinds: ['fact'] },
          merge_policy: { dedupe: 'source+hash', priority: ['episodic_recent', 'semantic_policy'], token_budget: 400 },
        });
        out(ctx.text.replace(/^/gm, '  '));
        out(`\n  (${ctx.tokens.used}/${ctx.tokens.budget} tokens; retrieval ${ctx.retrievalId})`);
        out('\nTry: npx engram search "rollback after deadline"   ·   npx engram context --task deploy_2025_09_20 "next safe step?"');
      });
    });
}
