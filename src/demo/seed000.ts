/**
 * Demo data for seed 000's three flows: a deployment task's timeline, a support conversation, and a small
 * policy knowledge base. Used by `engram demo` and by the end-to-end tests.
 */
import type { EventInput, FactInput } from '../write/input.js';

export const DEPLOY_TASK = 'deploy_2025_09_20';
export const SUPPORT_SESSION = 'sess_7';

const t = (hhmmss: string) => `2025-09-20T${hhmmss}Z`;

export const deployEvents: EventInput[] = [
  { taskId: DEPLOY_TASK, ts: t('18:01:00'), type: 'decision', content: 'Start rollout of payments v3.2.0 to prod, canary first.' },
  { taskId: DEPLOY_TASK, ts: t('18:03:12'), type: 'tool_call', tool: 'kubectl', args: { ns: 'payments', action: 'apply -f canary.yaml' }, result: { ok: true, msg: 'deployment.apps/payments-canary configured' } },
  { taskId: DEPLOY_TASK, ts: t('18:08:40'), type: 'observation', content: 'Canary error rate 0.2%, within the 1% SLO.' },
  { taskId: DEPLOY_TASK, ts: t('18:12:05'), type: 'tool_call', tool: 'kubectl', args: { ns: 'payments', action: 'set image deploy/payments payments=v3.2.0' }, result: { ok: true, msg: 'image updated' } },
  { taskId: DEPLOY_TASK, ts: t('18:15:30'), type: 'tool_call', tool: 'kubectl', args: { ns: 'payments', action: 'rollout status' }, result: { ok: false, msg: 'Waiting: 2 of 6 updated replicas are available' } },
  { taskId: DEPLOY_TASK, ts: t('18:19:02'), type: 'observation', content: 'Readiness probes failing on 4 pods: connection refused on :8080.' },
  { taskId: DEPLOY_TASK, ts: t('18:22:10'), type: 'tool_call', tool: 'kubectl', args: { ns: 'payments', action: 'rollout status' }, result: { ok: false, msg: 'deployment "payments" exceeded its progress deadline' } },
];

export const supportTurns: EventInput[] = [
  { sessionId: SUPPORT_SESSION, ts: t('09:00:00'), type: 'message', actor: 'user', name: 'customer', content: 'Hi, I cannot log in to my account since this morning.' },
  { sessionId: SUPPORT_SESSION, ts: t('09:00:20'), type: 'message', actor: 'agent', name: 'support-bot', content: 'Sorry about that! Did you get any error message when signing in?' },
  { sessionId: SUPPORT_SESSION, ts: t('09:01:05'), type: 'message', actor: 'user', name: 'customer', content: 'It says my credentials are invalid, but I am sure the password is right.' },
  { sessionId: SUPPORT_SESSION, ts: t('09:01:40'), type: 'message', actor: 'agent', name: 'support-bot', content: 'I can help you set a new one. Is the account email the one you are writing from?' },
  { sessionId: SUPPORT_SESSION, ts: t('09:02:15'), type: 'message', actor: 'user', name: 'customer', content: 'Yes, and I also have two-factor turned on, if that matters.' },
];

const policy = (source: string, section: string, key: string, text: string, tags: string[] = ['policy', 'prod_v3']): FactInput => ({
  key,
  text,
  kind: 'chunk',
  source,
  section,
  tags,
  pii: false,
  metadata: { task_type: 'general_knowledge' },
});

export const policyChunks: FactInput[] = [
  policy('billing-policy.md', 'refunds/annual', 'billing_refund_annual_1', 'Annual plans can be refunded in full within 30 days of purchase; after 30 days refunds are prorated by unused full months.'),
  policy('billing-policy.md', 'refunds/annual', 'billing_refund_annual_2', 'A prorated refund for an annual subscription excludes the discount granted for paying yearly.'),
  policy('billing-policy.md', 'refunds/exceptions', 'billing_refund_exceptions', 'Refunds are not issued for annual plans cancelled after 11 months, except where local consumer law requires it.'),
  policy('billing-policy.md', 'refunds/monthly', 'billing_refund_monthly', 'Monthly plans are not refunded; cancelling stops the next renewal and access continues until the period ends.'),
  policy('billing-policy.md', 'invoices', 'billing_invoices', 'Invoices are issued on the first day of each billing period and can be downloaded from the account page.'),
  policy('security-policy.md', 'password-reset', 'sec_password_reset_1', 'Password reset links are sent only to the verified account email and expire after 30 minutes.'),
  policy('security-policy.md', 'password-reset', 'sec_password_reset_2', 'If two-factor authentication is enabled, a password reset also requires the second factor or a recovery code.'),
  policy('security-policy.md', 'password-reset', 'sec_password_reset_3', 'Support agents must never set or read out a password; they can only trigger the reset email.'),
  policy('security-policy.md', 'lockout', 'sec_lockout', 'After 5 failed sign-in attempts the account is locked for 15 minutes.'),
  policy('runbook.md', 'rollback', 'doc_42_para_7', 'If a rollout exceeds its progress deadline, run kubectl rollout undo for the deployment and page the on-call.'),
  policy('runbook.md', 'canary', 'doc_42_para_3', 'Promote a canary only when its error rate stays below 1% for 10 minutes.'),
  policy('onboarding.md', 'workspace', 'onb_workspace', 'New workspaces get a 14-day trial of the Pro plan.', ['guide']),
];
