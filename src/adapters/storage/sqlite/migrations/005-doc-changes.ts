import type { Migration } from '../migrate.js';

/**
 * The change feed of the in-process search indexes (the SQLite form of PostgreSQL's `doc_changes`): one row per
 * doc that a commit added, removed or changed, or whose text got a vector, with a monotonic `seq`. Triggers
 * write it, so every write path (and every process) feeds it without knowing of it; the store adds the rows
 * triggers cannot see (an event doc whose lexical context changed when the event before it was redacted).
 * A process catches its indexes up by re-reading the docs listed above the seq it has, and a saved index file
 * records the seq it covers, so opening it costs only the changes since. `seq` is AUTOINCREMENT: never reused,
 * so rows pruned from the head leave a gap no saved file can fall into unnoticed; `at` (epoch ms) is what
 * pruning by age reads.
 */
export const docChanges: Migration = {
  version: 5,
  name: 'doc_changes: the change feed of the in-process indexes',
  up(db) {
    db.exec(`
CREATE TABLE IF NOT EXISTS doc_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant TEXT NOT NULL,
  doc_id INTEGER NOT NULL,
  at REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400000.0)
);
CREATE INDEX IF NOT EXISTS doc_changes_by_tenant ON doc_changes (tenant, seq);
CREATE TRIGGER IF NOT EXISTS docs_feed_insert AFTER INSERT ON docs
BEGIN INSERT INTO doc_changes (tenant, doc_id) VALUES (NEW.tenant, NEW.doc_id); END;
CREATE TRIGGER IF NOT EXISTS docs_feed_update AFTER UPDATE ON docs
BEGIN INSERT INTO doc_changes (tenant, doc_id) VALUES (NEW.tenant, NEW.doc_id); END;
CREATE TRIGGER IF NOT EXISTS docs_feed_delete AFTER DELETE ON docs
BEGIN INSERT INTO doc_changes (tenant, doc_id) VALUES (OLD.tenant, OLD.doc_id); END;
CREATE TRIGGER IF NOT EXISTS embeddings_feed_insert AFTER INSERT ON embeddings
BEGIN INSERT INTO doc_changes (tenant, doc_id) SELECT tenant, doc_id FROM docs WHERE content_hash = NEW.content_hash; END;
CREATE TRIGGER IF NOT EXISTS embeddings_feed_update AFTER UPDATE OF vector ON embeddings
BEGIN INSERT INTO doc_changes (tenant, doc_id) SELECT tenant, doc_id FROM docs WHERE content_hash = NEW.content_hash; END;
`);
  },
};
