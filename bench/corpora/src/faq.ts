/**
 * Document / FAQ chunks: the help centre of a file-sync product ("Harbor"), one chunk per section, ~150 chunks
 * of which 30 hold an answer. Questions are paraphrased the way users ask, sharing few words with the chunk.
 */
import { alternate, rng, sample, type Corpus, type CorpusDoc, type CorpusQuestion } from './format.js';

interface Chunk {
  key?: string;
  source: string;
  section: string;
  text: string;
}

const ANSWERS: Chunk[] = [
  { key: 'refund', source: 'billing.md', section: 'Refunds', text: 'Annual plans can be refunded pro rata within 30 days of purchase. Monthly plans are not refundable, but you can cancel at any time and keep access until the end of the period.' },
  { key: 'seats', source: 'billing.md', section: 'Seats', text: 'Seats are billed per active member per month. Deactivated members stop counting towards your bill from the next invoice.' },
  { key: 'filesize', source: 'sync.md', section: 'Limits', text: 'A single file can be at most 50 GB. Larger files are skipped and listed in the sync report so you can move them elsewhere.' },
  { key: 'ignore', source: 'sync.md', section: 'Selective sync', text: 'Exclude folders by adding a .harborignore file at the root of the synced folder. It uses gitignore syntax, and matching paths are never uploaded.' },
  { key: 'rotation', source: 'security.md', section: 'Encryption', text: 'Files are encrypted at rest with AES-256. Encryption keys are rotated automatically every 90 days.' },
  { key: 'sso', source: 'security.md', section: 'SSO', text: 'SAML single sign-on is available on the Business plan and above. Okta, Azure AD and Google Workspace are tested providers.' },
  { key: '2fa', source: 'security.md', section: 'Two-factor authentication', text: 'Admins can require two-factor authentication for every member from Settings → Security. Members without it are asked to set it up at their next sign-in.' },
  { key: 'versions', source: 'versions.md', section: 'Version history', text: 'Previous versions of a file are kept for 30 days on Starter and for 180 days on Business.' },
  { key: 'trash', source: 'versions.md', section: 'Deleted files', text: 'Deleted files stay in the trash for 30 days. After that they are purged permanently and cannot be recovered by support.' },
  { key: 'links', source: 'sharing.md', section: 'Shared links', text: 'Shared links can carry a password and an expiry date. By default a link never expires until you revoke it.' },
  { key: 'guests', source: 'sharing.md', section: 'External guests', text: 'Guests outside your organisation can view and comment but cannot edit unless an admin turns on guest editing.' },
  { key: 'ratelimit', source: 'api.md', section: 'Rate limits', text: 'The REST API allows 600 requests per minute per token. Going over returns HTTP 429 with a Retry-After header.' },
  { key: 'tokens', source: 'api.md', section: 'Personal access tokens', text: 'Personal access tokens expire after one year. They can be scoped to read-only access when created.' },
  { key: 'webhooks', source: 'api.md', section: 'Webhooks', text: 'Webhook deliveries that fail are retried with exponential backoff for up to 24 hours, then dropped and logged.' },
  { key: 'os', source: 'desktop.md', section: 'System requirements', text: 'The desktop app supports macOS 12 Monterey or later, Windows 10 and 11 (64-bit), and Ubuntu 22.04.' },
  { key: 'bandwidth', source: 'desktop.md', section: 'Network', text: 'Upload and download speed can be capped under Preferences → Network. LAN sync between computers on the same network is on by default.' },
  { key: 'offline', source: 'mobile.md', section: 'Offline files', text: 'On mobile, mark files as available offline. They refresh automatically whenever the device is on Wi-Fi.' },
  { key: 'camera', source: 'mobile.md', section: 'Camera upload', text: 'Camera upload sends photos in original quality. Videos are uploaded only over Wi-Fi unless you change it in settings.' },
  { key: 'audit', source: 'admin.md', section: 'Audit log', text: 'The audit log keeps one year of events on Business and can be exported as CSV from the admin console.' },
  { key: 'region', source: 'admin.md', section: 'Data residency', text: 'Workspaces are hosted in the EU (Frankfurt) or the US (Oregon). The region is chosen at creation and cannot be changed later.' },
  { key: 'offboard', source: 'admin.md', section: 'Removing members', text: 'When someone leaves, transfer their files to another member before deleting the account; otherwise the files are deleted 14 days later.' },
  { key: 'conflicts', source: 'troubleshooting.md', section: 'Conflicted copies', text: 'If two people edit the same file while offline, both versions are kept and one is renamed with "(conflicted copy)" and the editor\'s name.' },
  { key: 'indexing', source: 'troubleshooting.md', section: 'Stuck on indexing', text: 'If sync stays on "Indexing" for hours, quit the app, delete the .harbor/cache folder and start it again.' },
  { key: 'proxy', source: 'troubleshooting.md', section: 'Proxies', text: 'Corporate proxies are detected from the system settings. Set the HARBOR_PROXY environment variable to override the detected proxy.' },
  { key: 'storage', source: 'plans.md', section: 'Storage', text: 'Starter includes 2 TB per workspace. Business includes 5 TB per seat, pooled across the workspace.' },
  { key: 'nonprofit', source: 'plans.md', section: 'Discounts', text: 'Registered nonprofits and schools get 50% off the Business plan. Apply with proof of status from the billing page.' },
  { key: 'slack', source: 'integrations.md', section: 'Slack', text: 'The Slack app posts a message to a channel whenever a file in a watched folder changes.' },
  { key: 'paging', source: 'api.md', section: 'Pagination', text: 'List endpoints return 100 items per page. Pass the next_cursor value from a response to fetch the following page.' },
];

const QUESTIONS: { q: string; keys: string[] }[] = [
  { q: 'Can I get my money back if I cancel a yearly subscription?', keys: ['refund'] },
  { q: 'Do we keep paying for people we removed from the team?', keys: ['seats'] },
  { q: 'What happens to really huge videos that are too big to upload?', keys: ['filesize'] },
  { q: 'How do I stop some directories from being backed up?', keys: ['ignore'] },
  { q: 'How often do you change the keys that protect stored data?', keys: ['rotation'] },
  { q: 'Which identity providers work with enterprise login?', keys: ['sso'] },
  { q: 'Can I force everybody in the company to use a one-time code when logging in?', keys: ['2fa'] },
  { q: 'How far back can I restore an older draft of a document on the cheapest plan?', keys: ['versions'] },
  { q: 'I removed something by accident three weeks ago. Is it gone for good?', keys: ['trash'] },
  { q: 'Do public URLs to my files stop working after a while?', keys: ['links'] },
  { q: 'Are outside collaborators able to modify our documents?', keys: ['guests'] },
  { q: 'How many calls per minute can an integration make?', keys: ['ratelimit'] },
  { q: 'How long does a developer key stay valid?', keys: ['tokens'] },
  { q: 'What if my server is down when you send an event notification?', keys: ['webhooks'] },
  { q: 'Will the client run on an older Mac?', keys: ['os'] },
  { q: 'Can I throttle how much of my internet connection it uses?', keys: ['bandwidth'] },
  { q: 'How do I read documents on my phone on a plane?', keys: ['offline'] },
  { q: 'Does the phone app back up my pictures at full resolution?', keys: ['camera'] },
  { q: 'How long is the record of who did what retained?', keys: ['audit'] },
  { q: 'Can we move our data to Europe after signing up?', keys: ['region'] },
  { q: "What happens to a former employee's documents?", keys: ['offboard'] },
  { q: 'What does the app do when two people change the same thing at once?', keys: ['conflicts'] },
  { q: 'The client hangs forever while scanning my folders. How do I fix it?', keys: ['indexing'] },
  { q: "How do I make it work behind our company's network gateway?", keys: ['proxy'] },
  { q: 'How much space comes with the entry-level tier?', keys: ['storage'] },
  { q: 'Is there a price reduction for charities?', keys: ['nonprofit'] },
  { q: 'Can our chat tool tell us when documents are updated?', keys: ['slack'] },
  { q: 'How do I get the rest of the results when a listing is long?', keys: ['paging'] },
  { q: 'How long are old and removed files kept?', keys: ['versions', 'trash'] },
  { q: 'What limits apply to automated access through the developer interface?', keys: ['ratelimit', 'tokens'] },
];

/** The rest of the help centre: sections without an answer to any question, in the same voice. */
const FEATURES: Record<string, string[]> = {
  'billing.md': ['invoices', 'payment methods', 'VAT numbers', 'currency', 'plan changes', 'receipts', 'failed payments'],
  'sync.md': ['the sync icon', 'pausing sync', 'sync status', 'symlinks', 'hidden files', 'external drives', 'file names'],
  'security.md': ['session timeouts', 'device approval', 'password rules', 'security reports', 'login alerts', 'IP allow lists'],
  'versions.md': ['comparing versions', 'naming versions', 'version comments', 'restoring folders', 'version limits'],
  'sharing.md': ['folder invitations', 'permissions', 'link previews', 'download limits', 'watermarks', 'requesting files'],
  'api.md': ['authentication', 'error codes', 'SDKs', 'file uploads', 'search endpoints', 'changelog', 'sandbox'],
  'desktop.md': ['installing', 'updating the app', 'the tray menu', 'notifications', 'selective folders', 'uninstalling'],
  'mobile.md': ['signing in on mobile', 'the document scanner', 'passcode lock', 'sharing from mobile', 'storage on the device'],
  'admin.md': ['the admin console', 'groups', 'member roles', 'usage reports', 'domain verification', 'invites'],
  'troubleshooting.md': ['slow uploads', 'missing files', 'error messages', 'antivirus software', 'log files', 'reinstalling'],
  'plans.md': ['comparing plans', 'trials', 'upgrading', 'downgrading', 'enterprise quotes'],
  'integrations.md': ['Microsoft Teams', 'Zapier', 'Google Docs', 'Jira', 'Salesforce', 'calendar apps'],
};

const TEMPLATES = [
  (f: string) => `You can manage ${f} from the settings page. Changes apply to every device within a few minutes.`,
  (f: string) => `Only workspace owners and admins can change ${f}. Members see the current setting but cannot edit it.`,
  (f: string) => `${cap(f)} work the same on every plan. See the plan comparison for anything that differs between Starter and Business.`,
  (f: string) => `To learn more about ${f}, open the Help menu in the app and search for it, or contact support with your workspace name.`,
  (f: string) => `We are improving ${f} this year. Follow the changelog for announcements and early access.`,
  (f: string) => `If something about ${f} looks wrong, sign out and in again first; most problems clear up after that.`,
];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function faqCorpus(): Corpus {
  const r = rng(22_03);
  const fillers: Chunk[] = Object.entries(FEATURES).flatMap(([source, features]) =>
    features.flatMap((f) => sample(r, TEMPLATES, 2).map((tpl, i) => ({ source, section: `${cap(f)}${i === 0 ? '' : ' (more)'}`, text: tpl(f) }))),
  );
  const chunks = sample(r, [...ANSWERS, ...fillers], ANSWERS.length + fillers.length);
  const byKey = new Map<string, string>();
  const base = Date.UTC(2024, 2, 1);
  const docs: CorpusDoc[] = chunks.map((c, i) => {
    const id = `${c.source}#${i + 1}`;
    if (c.key) byKey.set(c.key, id);
    return { id, type: 'note', ts: new Date(base + i * 60_000).toISOString(), content: `${c.section}: ${c.text}`, source: c.source, section: c.section };
  });
  const questions: CorpusQuestion[] = alternate(QUESTIONS).map((q, i) => ({ id: `q${i + 1}`, q: q.q, evidence: q.keys.map((k) => byKey.get(k)!), split: q.split }));
  return { name: 'faq-docs', shape: 'document / FAQ chunks with paraphrased questions', docs, questions };
}
