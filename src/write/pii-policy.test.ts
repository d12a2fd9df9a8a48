/**
 * The PII policy end to end on a real SQLite file: identifiers with PII are rejected whole, every other stored
 * string is scrubbed, retrieval records too, rendered provenance of records stored raw is scrubbed at read
 * time — and afterwards no raw value is anywhere in the database files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesUnder } from '../../testing/files.js';
import { openTestMemory, type TestMemory } from '../../testing/memory-fixture.js';
import { rejection } from '../core/errors.test-support.js';
import { createMemory } from '../memory.js';
import { openSqliteStorage } from '../adapters/storage/sqlite/index.js';
import { sharedEmbedder } from '../../testing/memory-fixture.js';
import { createHeuristicReranker } from '../adapters/rerankers/heuristic.js';

const PII = {
  email: 'alice.smith@example.com',
  ip: '192.168.10.45',
  ssn: '078-05-1120',
  phone: '+1 415 555 0100',
  card: '4111 1111 1111 1111',
};
const RAW = Object.values(PII);

const dbBytes = bytesUnder; // the database, its WAL and the saved index files

describe('PII policy over every stored field (SQLite + USE-lite)', () => {
  let tm: TestMemory;

  beforeAll(async () => {
    tm = await openTestMemory();
  });
  afterAll(async () => {
    await tm.cleanup();
  });

  it('rejects PII in identifier fields with the path, and writes nothing', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ taskId: `deploy ${PII.email}` }, 'event.task_id'],
      [{ sessionId: PII.ip }, 'event.session_id'],
      [{ userId: PII.email }, 'event.user_id'],
      [{ agentId: `agent ${PII.phone}` }, 'event.agent_id'],
      [{ tool: `ssh ${PII.ip}` }, 'event.tool'],
      [{ sessionId: `host_${PII.ip}` }, 'event.session_id'],
      [{ taskId: `case-${PII.ssn}` }, 'event.task_id'],
    ];
    for (const [fields, path] of cases) {
      const e = await rejection(tm.memory.logEvent({ content: 'a deploy note', ...fields }));
      expect(e.message, path).toContain(path);
      expect(e.code).toBe('VALIDATION');
      expect(e.issues[0]!.path).toBe(path);
      expect(e.message).not.toContain(Object.values(fields)[0]);
    }
    const batch = await rejection(tm.memory.logEvents([{ content: 'fine' }, { content: 'x', taskId: PII.ssn }]));
    expect(batch.issues[0]!.path).toBe('events.1.task_id');
    const fact = await rejection(tm.memory.remember({ text: 'a rule', key: `rule-${PII.ssn}` }));
    expect(fact.issues[0]!.path).toBe('fact.key');
    expect(await tm.memory.fetchEvents({ limit: 100 })).toEqual([]);
  });

  it('scrubs every other stored string: state label and source of events; predicate, source and section of facts', async () => {
    const event = await tm.memory.logEvent({
      content: `Mail ${PII.email} about the card ${PII.card}`,
      stateLabel: `waiting on ${PII.email}`,
      source: `ssh://${PII.ip}/var/log`,
      name: `Caller ${PII.phone}`,
      taskId: 'deploy_2025_09_20',
      sessionId: 'sess_7',
      metadata: { [`by ${PII.email}`]: PII.ssn },
    });
    expect(event.stateLabel).toBe('waiting on [EMAIL]');
    expect(event.source).toBe('ssh://[IP]/var/log');
    expect(event.name).toBe('Caller [PHONE]');
    expect(event.content).toBe('Mail [EMAIL] about the card [CARD]');
    expect(event.metadata).toEqual({ 'by [EMAIL]': '[GOV_ID]' });
    expect(event.pii.counts).toMatchObject({ email: 3, ip: 1, phone: 1, card: 1, gov_id: 1 });

    const { fact } = await tm.memory.remember({
      text: 'The backup host answers on port 22.',
      subject: 'backup host',
      predicate: `reachable from ${PII.ip}`,
      source: `notes/${PII.email}.md`,
      section: `ssn ${PII.ssn}`,
    });
    expect([fact.predicate, fact.source, fact.section]).toEqual(['reachable from [IP]', 'notes/[EMAIL]', 'ssn [GOV_ID]']);
    expect(fact.key).not.toContain(PII.ip);
  });

  it('stores retrieval records scrubbed: the query and the config with its filters', async () => {
    const r = await tm.memory.getContext(`what did ${PII.email} say from ${PII.ip}`, {
      task_id: 'deploy_2025_09_20',
      semantic_retrieval: { filters: { source: { ne: `${PII.email}` } } },
    });
    expect(r.query).toContain(PII.email); // the caller gets its own query back
    const rec = await tm.memory.storage.getRetrieval('default', r.retrievalId);
    expect(rec!.query).toBe('what did [EMAIL] say from [IP]');
    expect(JSON.stringify(rec!.config)).not.toContain(PII.email);
    expect(JSON.stringify(rec!.config)).toContain('[EMAIL]');
  });

  it('leaves no raw value in the database files', async () => {
    await tm.memory.flush();
    for (const ep of await tm.memory.learn.episodes({ order: 'asc' })) for (const v of RAW) expect(ep.streamKey).not.toContain(v);
    await tm.memory.close();
    const bytes = dbBytes(tm.dir);
    for (const v of RAW) expect(bytes.includes(Buffer.from(v)), v).toBe(false);
  });
});

describe('rendered provenance of records stored raw', () => {
  it('is scrubbed at read time when the guardrail is on', async () => {
    const raw = await openTestMemory({ pii: { enabled: false } });
    try {
      await raw.memory.remember({ text: 'Rotate the database password monthly.', source: `runbook-${PII.ip}.md`, section: PII.email });
      await raw.memory.close();
      const storage = await openSqliteStorage({ path: raw.path });
      const memory = await createMemory({ storage, embedder: sharedEmbedder(), reranker: createHeuristicReranker(), config: { retention: { sweepIntervalMinutes: 0 } } });
      const r = await memory.getContext('rotate the database password', { episodic_window: { mode: 'none' } });
      expect(r.items).toHaveLength(1);
      expect(r.text).toContain('[runbook-[IP].md §[EMAIL]');
      expect(r.items[0]!.provenance).toMatchObject({ source: 'runbook-[IP].md', section: '[EMAIL]' });
      for (const v of RAW) expect(r.text).not.toContain(v);
      await memory.close();
    } finally {
      await raw.cleanup();
    }
  });
});
