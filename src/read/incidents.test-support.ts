/**
 * 120 incident memories (10 services × 12 troubles, a fix each) and five queries: more memories than the smallest
 * candidate pool (pool.ts: CALIBRATION_DEPTH), so a larger k or top_k fetches a deeper pool from each index. Used by
 * src/read/k-stable.test.ts and bench/context-topk.ts.
 */
const SERVICES = ['checkout', 'payments', 'search', 'login', 'billing', 'webhooks', 'reports', 'mobile api', 'inventory', 'shipping'];
const TROUBLES = [
  'returned 500 errors after a deploy',
  'was slow because the connection pool ran out',
  'timed out talking to the database',
  'ran out of memory during the nightly batch',
  'lost messages when the queue was restarted',
  'failed its health check after a config change',
  'logged ERR_PG_53300 too many clients',
  'served stale data from the cache',
  'dropped requests behind the load balancer',
  'filled its disk with debug logs',
  'deadlocked on a migration lock',
  'sent duplicate emails after a retry storm',
];
const FIXES = ['we rolled back', 'we raised the limit', 'we added a retry with backoff', 'we restarted the workers', 'we pinned the old version'];

export const INCIDENT_MEMORIES: readonly string[] = SERVICES.flatMap((s, i) =>
  TROUBLES.map((t, j) => `The ${s} service ${t}; ${FIXES[(i + j) % FIXES.length]}.`),
);

export const INCIDENT_QUERIES: readonly string[] = [
  'Why did checkout time out against the database?',
  'payments connection pool exhausted',
  'What did we do when the queue dropped messages?',
  'ERR_PG_53300 in billing',
  'Which service crashed from lack of memory overnight?',
];
