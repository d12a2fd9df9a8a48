/**
 * Conflict strategies per predicate: what a new value for an existing subject + predicate does.
 *
 *   single  one value at a time (lives_in, works_at, email): the new value is a new version of the lineage and
 *           the old version's validity is closed (it stays in history);
 *   multi   values accumulate (speaks, likes, allergic_to): each value is its own lineage, both stay current,
 *           and the read path never reports two of them as a conflict;
 *   merge   one lineage whose new version carries the old and the new values together ("English; French");
 *   llm     the configured LLM decides between replace, keep both and merge for each new value (write/facts.ts);
 *           without an LLM, or when it fails, `single`.
 *
 * Predicates match after normalisation (lower case, spaces and dashes as underscores: "Lives in" = lives_in).
 * Configured as `facts.predicates` (engine config); `facts.defaultStrategy` covers the rest.
 */
import { z } from 'zod';

export const CONFLICT_STRATEGIES = ['single', 'multi', 'merge', 'llm'] as const;
export type ConflictStrategy = (typeof CONFLICT_STRATEGIES)[number];

/** Defaults: attributes that hold one value at a time, and relations that naturally hold several. */
export const DEFAULT_PREDICATE_STRATEGIES: Readonly<Record<string, ConflictStrategy>> = {
  lives_in: 'single',
  works_at: 'single',
  email: 'single',
  phone: 'single',
  address: 'single',
  timezone: 'single',
  name: 'single',
  job_title: 'single',
  manager: 'single',
  birthday: 'single',
  wife: 'single',
  husband: 'single',
  partner: 'single',
  prefers: 'single',
  speaks: 'multi',
  likes: 'multi',
  dislikes: 'multi',
  allergic_to: 'multi',
  diet_or_trait: 'multi',
  uses: 'multi',
  owns: 'multi',
  skills: 'multi',
  has_skill: 'multi',
  hobby: 'multi',
  hobbies: 'multi',
  sister: 'multi',
  brother: 'multi',
  son: 'multi',
  daughter: 'multi',
  teammate: 'multi',
  notes: 'merge',
};

export function normalizePredicate(p: string): string {
  return p.normalize('NFKC').trim().toLowerCase().replace(/[\s-]+/g, '_');
}

export const factPolicySchema = z
  .object({
    /** Strategy per predicate, merged over the defaults above (keys are normalised). */
    predicates: z.record(z.string().min(1).max(100), z.enum(CONFLICT_STRATEGIES)).default({}),
    /** For predicates not listed. */
    defaultStrategy: z.enum(CONFLICT_STRATEGIES).default('single'),
  })
  .strict();

export type FactPolicy = z.output<typeof factPolicySchema>;

/** The strategy for a predicate under a policy. */
export function strategyFor(policy: FactPolicy | undefined, predicate: string | undefined): ConflictStrategy {
  if (!predicate) return policy?.defaultStrategy ?? 'single';
  const p = normalizePredicate(predicate);
  const own = policy ? Object.entries(policy.predicates).find(([k]) => normalizePredicate(k) === p)?.[1] : undefined;
  return own ?? DEFAULT_PREDICATE_STRATEGIES[p] ?? policy?.defaultStrategy ?? 'single';
}
