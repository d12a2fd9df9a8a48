/**
 * Agent traces: ~26 tasks of a coding/operations agent, each a session of tool calls with results, errors,
 * observations, decisions and an outcome, padded with the routine calls every task makes. Questions are what an
 * agent asks later ("how did we fix …", "what broke when …"), worded apart from the events that answer them.
 */
import { alternate, pick, rng, sample, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';

type Key = Omit<CorpusDoc, 'id' | 'ts' | 'session'> & { key?: string };

/** Each task: its title (the first event says it) and the events that matter, in order. */
const TASKS: { title: string; events: Key[] }[] = [
  {
    title: 'Fix the flaky integration tests in the api package',
    events: [
      { type: 'tool_call', tool: 'shell', args: { cmd: 'npm test --workspace api' }, result: { exit: 1, failed: 3, passed: 212 } },
      { key: 'flaky-cause', type: 'observation', content: 'The failures only happen when jest runs workers in parallel: the fixtures of two suites both bind port 5433.' },
      { key: 'flaky-flag', type: 'tool_call', tool: 'shell', args: { cmd: 'npx jest --runInBand packages/api' }, result: { exit: 0, passed: 215 } },
      { type: 'outcome', content: 'Integration suite green three runs in a row with serial execution; opened a ticket to give each fixture its own port.' },
    ],
  },
  {
    title: 'Deploy payments-api 1.14.2 to production',
    events: [
      { key: 'pull-error', type: 'error', content: 'Pod payments-api-7c9d stuck in ImagePullBackOff: registry.internal/payments-api:1.14.2 not found.' },
      { key: 'pull-fix', type: 'decision', content: 'Re-tag the CI build 1.14.2-rc3 as 1.14.2 and push it, since the release job skipped the final tag.' },
      { type: 'tool_call', tool: 'kubectl', args: { action: 'rollout status', deployment: 'payments-api' }, result: { ok: true, msg: 'successfully rolled out' } },
      { type: 'outcome', content: 'payments-api 1.14.2 live; error rate flat.' },
    ],
  },
  {
    title: 'Run the orders table migration',
    events: [
      { type: 'tool_call', tool: 'psql', args: { file: 'migrations/0042_orders_status.sql' }, result: { ok: false, error: 'deadlock detected' } },
      { type: 'observation', content: 'The migration and the nightly VACUUM job both take locks on orders around 02:00.' },
      { key: 'vacuum-window', type: 'decision', content: 'From now on schedule schema migrations outside 02:00–03:00 UTC, when the vacuum runs.' },
      { type: 'outcome', content: 'Migration 0042 applied at 10:15 UTC without locking issues.' },
    ],
  },
  {
    title: 'Build agent ci-runner-3 out of disk',
    events: [
      { type: 'tool_call', tool: 'shell', args: { cmd: 'df -h /var' }, result: { use: '98%', avail: '3.1G' } },
      { key: 'prune', type: 'tool_call', tool: 'shell', args: { cmd: 'docker system prune -af --volumes' }, result: { reclaimed: '41.2GB' } },
      { type: 'decision', content: 'Add a weekly cron on every runner that prunes images older than 7 days.' },
    ],
  },
  {
    title: 'Sync job failing against GitHub',
    events: [
      { type: 'error', content: 'HTTP 403: API rate limit exceeded for installation ID 41822.' },
      { key: 'etag', type: 'decision', content: 'Use conditional requests with ETags and cache repository metadata for 10 minutes; unchanged responses do not count against the limit.' },
      { type: 'outcome', content: 'Sync job has run for two days without a 403.' },
    ],
  },
  {
    title: 'Check TLS certificates before the quarter ends',
    events: [
      { key: 'cert-date', type: 'observation', content: 'The certificate for api.example.org expires on 2024-06-03; the others are valid until September.' },
      { type: 'tool_call', tool: 'shell', args: { cmd: 'certbot renew --cert-name api.example.org' }, result: { ok: true, renewed: 1 } },
    ],
  },
  {
    title: 'Investigate memory growth in the email worker',
    events: [
      { type: 'tool_call', tool: 'node', args: { cmd: 'node --inspect dist/worker.js', snapshot: 'heap-2.heapsnapshot' }, result: { heapMB: 1840 } },
      { key: 'leak-cause', type: 'observation', content: 'Heap grows about 30 MB per hour; the template cache is an LRU created without a max size, so nothing is ever evicted.' },
      { key: 'leak-fix', type: 'decision', content: 'Cap the template cache at 5,000 entries and add a heap gauge to the dashboard.' },
      { type: 'outcome', content: 'Worker heap stable at 310 MB over 24 hours.' },
    ],
  },
  {
    title: 'Upgrade the dashboard to React 18',
    events: [
      { type: 'error', content: 'Warning: ReactDOM.render is no longer supported in React 18. Use createRoot instead.' },
      { key: 'react-root', type: 'decision', content: 'Replace ReactDOM.render with createRoot in src/index.tsx and wrap the app in StrictMode.' },
      { type: 'tool_call', tool: 'shell', args: { cmd: 'pnpm test' }, result: { exit: 0, passed: 388 } },
    ],
  },
  {
    title: 'Slow tenant event listing',
    events: [
      { type: 'tool_call', tool: 'psql', args: { query: 'EXPLAIN ANALYZE SELECT * FROM events WHERE tenant = $1 ORDER BY ts DESC LIMIT 50' }, result: { plan: 'Seq Scan on events', ms: 4200 } },
      { key: 'index-name', type: 'tool_call', tool: 'psql', args: { query: 'CREATE INDEX CONCURRENTLY events_tenant_ts_idx ON events (tenant, ts DESC)' }, result: { ok: true } },
      { key: 'index-gain', type: 'outcome', content: 'p95 of the listing endpoint dropped from 4.2 s to 35 ms.' },
    ],
  },
  {
    title: 'Staging service cannot reach Redis',
    events: [
      { type: 'error', content: 'getaddrinfo ENOTFOUND redis.staging.svc.cluster.local' },
      { key: 'namespace', type: 'observation', content: 'The staging namespace is called stage, not staging: the hostname in values-staging.yaml was wrong.' },
      { type: 'tool_call', tool: 'helm', args: { action: 'upgrade', release: 'api', values: 'values-staging.yaml' }, result: { ok: true } },
    ],
  },
  {
    title: 'Refund the orders affected by the double-charge bug',
    events: [
      { key: 'refund', type: 'tool_call', tool: 'python', args: { script: 'scripts/refund.py', dryRun: true }, result: { orders: 17, total: '€1,284.50' } },
      { type: 'decision', content: 'The user approved the list; run the script again without --dry-run.' },
      { type: 'outcome', content: 'Refunds issued; customers notified by email.' },
    ],
  },
  {
    title: 'Stabilise the end-to-end sign-in test',
    events: [
      { type: 'observation', content: 'The sign-in button stays disabled until the captcha script has loaded, and the test clicks it too early.' },
      { key: 'captcha-wait', type: 'decision', content: 'Wait for the form to have data-ready="true" before clicking, instead of a fixed sleep.' },
      { type: 'outcome', content: 'e2e suite passed 20 of 20 runs.' },
    ],
  },
  {
    title: 'Install the analytics notebook dependencies',
    events: [
      { type: 'error', content: 'ResolutionImpossible: pandas 2.2 requires numpy>=1.26, but scipy 1.10 pins numpy<1.25.' },
      { key: 'scipy', type: 'decision', content: 'Bump scipy to 1.12, which accepts numpy 1.26; pandas stays at 2.2.' },
      { type: 'tool_call', tool: 'shell', args: { cmd: 'pip install -r requirements.txt' }, result: { exit: 0 } },
    ],
  },
  {
    title: 'Nightly revenue report arrives at the wrong hour',
    events: [
      { key: 'cron-tz', type: 'observation', content: 'The crontab on report-host uses Europe/Lisbon local time, while the report expects to run at 00:00 UTC; in summer it fires an hour early.' },
      { type: 'decision', content: 'Set CRON_TZ=UTC at the top of the crontab.' },
    ],
  },
  {
    title: 'Backups failing to upload',
    events: [
      { type: 'error', content: 'AccessDenied: not authorized to perform s3:PutObject on arn:aws:s3:::acme-backups/daily/' },
      { key: 'iam', type: 'decision', content: 'Add s3:PutObject on acme-backups/* to the backup-writer role policy in terraform.' },
      { type: 'outcome', content: 'Daily backup uploaded, 38 GB.' },
    ],
  },
  {
    title: 'Add a CSV export to the admin panel',
    events: [
      { key: 'pnpm', type: 'message', name: 'user', content: 'Please always use pnpm in this repository, never npm: the lockfile is pnpm-lock.yaml.' },
      { type: 'tool_call', tool: 'shell', args: { cmd: 'pnpm add csv-stringify' }, result: { exit: 0 } },
      { type: 'outcome', content: 'CSV export merged behind the admin role check.' },
    ],
  },
  {
    title: 'Orders consumer lagging',
    events: [
      { key: 'poison', type: 'observation', content: 'Lag of 1.2M messages on orders.v2 partition 7: one consumer is stuck retrying a message whose payload fails schema validation.' },
      { key: 'offset', type: 'decision', content: 'Skip offset 88412 on partition 7 and send that message to the orders.v2.dlq topic.' },
      { type: 'outcome', content: 'Lag back to zero within 40 minutes.' },
    ],
  },
  {
    title: 'Reduce log volume and cost',
    events: [
      { type: 'tool_call', tool: 'logs', args: { query: 'count by path', range: '24h' }, result: { top: '/healthz', share: '60%' } },
      { key: 'healthz', type: 'decision', content: 'Log the /healthz and /readyz probes at debug level: they made up 60% of all log lines.' },
    ],
  },
  {
    title: 'Roll out the new checkout',
    events: [
      { key: 'rollout', type: 'tool_call', tool: 'flags', args: { flag: 'checkout_v2', rollout: '10%' }, result: { ok: true } },
      { type: 'outcome', content: 'Error rate unchanged at 0.3% after two hours; raised checkout_v2 to 50%.' },
    ],
  },
  {
    title: 'Quarterly restore drill',
    events: [
      { type: 'tool_call', tool: 'shell', args: { cmd: 'restore --snapshot 2024-03-01 --target drill-db' }, result: { ok: true } },
      { key: 'restore', type: 'outcome', content: 'Restoring the 2024-03-01 snapshot took 47 minutes, inside the 60-minute recovery target.' },
    ],
  },
  {
    title: 'Terraform plan shows drift',
    events: [
      { key: 'drift', type: 'observation', content: 'Security group sg-0a12 allows 0.0.0.0/0 on port 22: someone added the rule by hand in the console.' },
      { type: 'decision', content: 'Remove the SSH rule and import the group into terraform so changes go through review.' },
    ],
  },
  {
    title: 'Checkout crashes for Brazilian users',
    events: [
      { key: 'locale', type: 'error', content: "KeyError: 'checkout.pay_now' is missing in the pt-BR locale file." },
      { type: 'decision', content: 'Fall back to English for missing translation keys and add a CI check for key parity.' },
    ],
  },
  {
    title: 'Load test the search endpoint',
    events: [
      { type: 'tool_call', tool: 'k6', args: { script: 'load/search.js', rps: 400 }, result: { p99: '820ms', errors: '0.1%' } },
      { key: 'cpu', type: 'observation', content: 'The service is CPU-bound serialising JSON responses; the database is mostly idle during the run.' },
    ],
  },
  {
    title: 'Secret found in the repository',
    events: [
      { key: 'leak-commit', type: 'observation', content: 'An AWS access key was committed in config/dev.env in commit 3f9c2a1.' },
      { key: 'filter-repo', type: 'decision', content: 'Rotate the key, then rewrite history with git filter-repo and force-push after telling the team.' },
    ],
  },
];

const QUESTIONS: { q: string; keys: string[] }[] = [
  { q: 'Why did the api integration suite fail only sometimes?', keys: ['flaky-cause'] },
  { q: 'Which command got the integration tests passing?', keys: ['flaky-flag'] },
  { q: 'What went wrong when we shipped the payments service?', keys: ['pull-error'] },
  { q: 'How did we get the missing container image into the registry?', keys: ['pull-fix'] },
  { q: 'When should we avoid running database schema changes?', keys: ['vacuum-window'] },
  { q: 'How much space did cleaning up Docker free on the runner?', keys: ['prune'] },
  { q: "How did we stop hitting the code host's request quota?", keys: ['etag'] },
  { q: 'On what date was the API certificate going to lapse?', keys: ['cert-date'] },
  { q: "What made the mail worker's memory climb?", keys: ['leak-cause'] },
  { q: 'What limit did we put on the cache that was leaking?', keys: ['leak-fix'] },
  { q: 'Which file changed for the new root rendering API?', keys: ['react-root'] },
  { q: 'What did we call the index on the events table?', keys: ['index-name'] },
  { q: 'How much faster did listing events get?', keys: ['index-gain'] },
  { q: "Why couldn't the pre-production service find its cache host?", keys: ['namespace'] },
  { q: 'How many customers were reimbursed, and how much in total?', keys: ['refund'] },
  { q: 'How did we fix the browser test for logging in?', keys: ['captcha-wait'] },
  { q: 'Which package upgrade resolved the numpy conflict?', keys: ['scipy'] },
  { q: 'Why did the nightly revenue job fire at the wrong time?', keys: ['cron-tz'] },
  { q: 'Which role needed an extra permission for backups?', keys: ['iam'] },
  { q: 'Which package manager does the user want us to use?', keys: ['pnpm'] },
  { q: 'What blocked the order stream consumer?', keys: ['poison'] },
  { q: 'Which message position did we skip on the stuck partition?', keys: ['offset'] },
  { q: 'What share of the logs came from liveness probes?', keys: ['healthz'] },
  { q: 'What percentage of users got checkout v2 first?', keys: ['rollout'] },
  { q: 'How long did the last restore drill take?', keys: ['restore'] },
  { q: 'What manual firewall change did the drift check find?', keys: ['drift'] },
  { q: 'Which translation was missing the pay button string?', keys: ['locale'] },
  { q: 'What was the bottleneck when we load tested search?', keys: ['cpu'] },
  { q: 'Which commit leaked cloud credentials?', keys: ['leak-commit'] },
  { q: 'How did we purge the leaked key from git history?', keys: ['filter-repo'] },
  { q: 'What have we learned about when scheduled jobs run?', keys: ['vacuum-window', 'cron-tz'] },
  { q: 'Which failures came from using the wrong name for something in deployment config?', keys: ['pull-error', 'namespace'] },
];

/** Routine calls every task makes, to pad a trace as real ones are padded. */
const ROUTINE: Key[] = [
  { type: 'tool_call', tool: 'shell', args: { cmd: 'git status' }, result: { clean: true, branch: 'main' } },
  { type: 'tool_call', tool: 'shell', args: { cmd: 'git pull --rebase' }, result: { exit: 0 } },
  { type: 'tool_call', tool: 'shell', args: { cmd: 'ls -la' }, result: { exit: 0, entries: 24 } },
  { type: 'tool_call', tool: 'read_file', args: { path: 'README.md' }, result: { lines: 212 } },
  { type: 'tool_call', tool: 'read_file', args: { path: 'package.json' }, result: { lines: 64 } },
  { type: 'tool_call', tool: 'shell', args: { cmd: 'npm test' }, result: { exit: 0, passed: 214 } },
  { type: 'tool_call', tool: 'shell', args: { cmd: 'npm run lint' }, result: { exit: 0, warnings: 2 } },
  { type: 'tool_call', tool: 'kubectl', args: { action: 'get pods', namespace: 'prod' }, result: { running: 42 } },
  { type: 'tool_call', tool: 'kubectl', args: { action: 'logs', deployment: 'api', tail: 200 }, result: { lines: 200 } },
  { type: 'tool_call', tool: 'grep', args: { pattern: 'TODO', path: 'src' }, result: { matches: 31 } },
  { type: 'observation', content: 'Reading the service logs for the last hour to see what changed.' },
  { type: 'observation', content: 'Nothing unusual in the recent commits on main.' },
  { type: 'observation', content: 'The dashboards show normal traffic for this time of day.' },
  { type: 'decision', content: 'Start with the simplest explanation and check the configuration first.' },
  { type: 'decision', content: 'Open a pull request and ask for a review before merging.' },
  { type: 'tool_call', tool: 'gh', args: { action: 'pr create', draft: true }, result: { ok: true } },
  { type: 'tool_call', tool: 'shell', args: { cmd: 'docker compose up -d' }, result: { exit: 0 } },
  { type: 'error', content: 'Command timed out after 120 seconds; retrying once.' },
  { type: 'tool_call', tool: 'http', args: { method: 'GET', url: 'https://status.example.org' }, result: { status: 200 } },
  { type: 'message', name: 'user', content: 'Thanks, keep me posted.' },
  { type: 'message', name: 'user', content: 'Sounds good, go ahead.' },
  { type: 'outcome', content: 'Task closed; notes added to the runbook.' },
];

export function tracesCorpus(): Corpus {
  const r = rng(22_02);
  const docs: CorpusDoc[] = [];
  const byKey = new Map<string, string>();
  let t = Date.UTC(2024, 1, 5, 8, 0);
  TASKS.forEach((task, i) => {
    const session = `T${i + 1}`;
    let n = 0;
    const push = (e: Key) => {
      const { key, ...rest } = e;
      const id = `${session}:${++n}`;
      docs.push({ id, session, ts: new Date(t).toISOString(), name: rest.name ?? (rest.type === 'tool_call' ? rest.tool : 'agent'), ...rest });
      if (key) byKey.set(key, id);
      t += 30_000 + Math.floor(r() * 240_000);
    };
    push({ type: 'message', name: 'user', content: task.title });
    const pad = sample(r, ROUTINE, 6 + Math.floor(r() * 6));
    // The routine calls spread before, between and after the events that matter.
    const slots = task.events.length + 1;
    pad.forEach((p, j) => {
      if (j % slots === 0) push(p);
    });
    task.events.forEach((e, j) => {
      push(e);
      pad.forEach((p, m) => {
        if (m % slots === j + 1) push(p);
      });
    });
    push(pick(r, ROUTINE.filter((x) => x.type === 'outcome')));
    t += (1 + Math.floor(r() * 3)) * 86_400_000;
  });
  const questions: CorpusQuestion[] = alternate(QUESTIONS).map((q, i) => ({ id: `q${i + 1}`, q: q.q, evidence: q.keys.map((k) => byKey.get(k)!), split: q.split }));
  return { name: 'agent-traces', shape: 'agent traces: tool calls, results, errors, decisions and outcomes, questions an agent asks later', docs, questions };
}
