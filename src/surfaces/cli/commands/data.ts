import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { EngramError } from '../../../core/errors.js';
import type { BackupKind, RestoreReport } from '../../../ports/storage.js';
import { collect, print, withMemory } from '../context.js';

/** "restored 12 events, 3 facts (…); 40 already there" for a backup's import report. */
function restoredText(records: Record<BackupKind, RestoreReport>): string {
  const entries = Object.entries(records) as [BackupKind, RestoreReport][];
  const written = entries.filter(([, r]) => r.written > 0).map(([k, r]) => `${r.written} ${k}`);
  const there = entries.reduce((n, [, r]) => n + r.existing, 0);
  const kept = entries.reduce((n, [, r]) => n + r.kept, 0);
  return `restored ${written.length ? written.join(', ') : 'nothing'}; ${there} already there${kept ? `, ${kept} stored with other content (kept as stored)` : ''}`;
}

export function registerData(program: Command): void {
  program
    .command('import')
    .description('restore a backup, or import a JSONL file of new events and facts (validated whole before anything is written)')
    .argument('<file>', 'what `engram export` writes (a backup: restored as it was, into --tenant or its own tenant), or JSONL of new records ({"record":"event",…}, {"record":"fact",…} or plain event objects {"task_id":…,"type":…})')
    .option('--no-progress', 'no progress bar')
    .option('--chunk-long', 'import an event longer than the content limit as consecutive parts instead of rejecting the file', false)
    .action(async (file: string, o: { progress: boolean; chunkLong: boolean }, cmd: Command) => {
      await withMemory(cmd, 'ingest', async (m, g) => {
        const showBar = o.progress && !g.json && process.stderr.isTTY;
        const bar = new SingleBar({ format: ' {phase} [{bar}] {value}/{total} records | embedding backlog {backlog}', stream: process.stderr }, Presets.shades_classic);
        let started = false;
        const report = await m.importJsonl(file, {
          ...(g.tenant ? { tenant: g.tenant } : {}),
          chunkLong: o.chunkLong,
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
        print(g, report, () => (report.records ? restoredText(report.records) : `imported ${report.events} events and ${report.facts} facts (${report.duplicates} duplicates skipped) from ${report.lines} lines`));
      });
    });

  program
    .command('export')
    .description('write a lossless backup of the tenant as JSONL: every record of every kind, ids, versions and times kept (API keys excluded)')
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (o: { out?: string }, cmd: Command) => {
      await withMemory(
        cmd, 'rows',
        async (m) => {
          const out = o.out ? createWriteStream(o.out) : process.stdout;
          let n = 0;
          for await (const rec of m.exportRecords()) {
            if (!out.write(`${JSON.stringify(rec)}\n`)) await once(out, 'drain');
            if (rec.kind !== 'header' && rec.kind !== 'end') n++;
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
