import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { EngramError } from '../../../core/errors.js';
import { collect, print, withMemory } from '../context.js';

export function registerData(program: Command): void {
  program
    .command('import')
    .description('import a JSONL file of events and facts (validated whole before anything is written)')
    .argument('<file>', 'JSONL file: what `engram export` writes ({"record":"event",…} and {"record":"fact",…} lines), or plain event objects ({"task_id":…,"type":…})')
    .option('--no-progress', 'no progress bar')
    .action(async (file: string, o: { progress: boolean }, cmd: Command) => {
      await withMemory(cmd, 'ingest', async (m, g) => {
        const showBar = o.progress && !g.json && process.stderr.isTTY;
        const bar = new SingleBar({ format: ' {phase} [{bar}] {value}/{total} records | embedding backlog {backlog}', stream: process.stderr }, Presets.shades_classic);
        let started = false;
        const report = await m.importJsonl(file, {
          onProgress: (p) => {
            if (!showBar || p.phase !== 'write') return;
            if (!started) {
              bar.start(p.total, 0, { phase: 'import', backlog: '-' });
              started = true;
            }
            bar.update(p.lines);
          },
        });
        if (started) {
          bar.setTotal(Math.max(1, await m.embeddingBacklog()));
          bar.update(0, { phase: 'embed ' });
          const off = m.onIndexProgress((p) => bar.update(p.embedded, { backlog: p.backlog }));
          await m.flush();
          off();
          bar.stop();
        }
        print(g, report, () => `imported ${report.events} events and ${report.facts} facts (${report.duplicates} duplicates skipped) from ${report.lines} lines`);
      });
    });

  program
    .command('export')
    .description('export every live event and every fact version as JSONL')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (o: { out?: string }, cmd: Command) => {
      await withMemory(
        cmd, 'rows',
        async (m) => {
          const out = o.out ? createWriteStream(o.out) : process.stdout;
          let n = 0;
          for await (const rec of m.exportRecords()) {
            if (!out.write(`${JSON.stringify(rec)}\n`)) await once(out, 'drain');
            n++;
          }
          if (o.out) {
            out.end();
            await once(out, 'finish');
            process.stderr.write(`exported ${n} records to ${o.out}\n`);
          }
        }
      );
    });

  program
    .command('forget')
    .description('delete records for good: their index entries and cached embeddings too')
    .option('--id <id>', 'event or fact id (repeatable; a fact id removes every version of it)', collect)
    .option('--user <id>', 'everything of this user')
    .option('--session <id>', 'everything of this session')
    .option('--task <id>', 'everything of this task')
    .action(async (o: { id?: string[]; user?: string; session?: string; task?: string }, cmd: Command) => {
      const scope = { userId: o.user, sessionId: o.session, taskId: o.task };
      const hasScope = Object.values(scope).some((v) => v !== undefined);
      if (!o.id?.length && !hasScope) {
        throw new EngramError('VALIDATION', 'forget needs --id, --user, --session or --task', { issues: [{ path: 'id', message: 'nothing selected' }] });
      }
      await withMemory(
        cmd, 'rows',
        async (m, g) => {
          const r = await m.forget({ ...(o.id?.length ? { ids: o.id } : {}), ...(hasScope ? { scope } : {}) });
          print(g, r, () => `forgot ${r.events} events, ${r.facts} facts (${r.docs} index entries, ${r.embeddings} embeddings)`);
        }
      );
    });
}
