/**
 * fast-check generators for filter trees and for the document fields they look at. Value pools are small
 * so random filters often hit random documents, and include the awkward cases: null, booleans, numbers
 * that look like strings, empty strings, an astral character and one from U+E000..U+FFFF (whose relative
 * order differs between UTF-8 bytes and JavaScript's UTF-16), arrays and objects in metadata.
 */
import fc from 'fast-check';
import { FILTER_COLUMNS, type FieldRef, type FilterColumn, type FilterNode, type Scalar } from '../core/filter.js';
import { DOC_KINDS, type Doc, type Json, type JsonObject } from '../core/types.js';

export const STRINGS = ['a', 'b', 'ab', 'B', '10', '', 'é', '\u{1F600}', '\uFF5E', 'prod'] as const;
export const NUMBERS = [0, 1, -1, 2.5, 10, 0.001] as const;
export const TAG_POOL = ['a', 'b', 'prod', '10'] as const;
const META_KEYS = ['k1', 'k2', 'nested'] as const;

export const scalarArb: fc.Arbitrary<Scalar> = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.constantFrom(...NUMBERS),
  fc.boolean(),
  fc.constant(null),
);

const metaScalarArb: fc.Arbitrary<Json> = scalarArb as fc.Arbitrary<Json>;
const metaValueArb: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: metaScalarArb },
  { weight: 2, arbitrary: fc.array(metaScalarArb, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('k1', 'k2'), metaScalarArb, { maxKeys: 2 }) },
);

/** Metadata objects over a few keys, sometimes nested one level. */
export const metadataArb: fc.Arbitrary<JsonObject> = fc.dictionary(fc.constantFrom(...META_KEYS), metaValueArb, { maxKeys: 3 });

export const tagsArb = fc.uniqueArray(fc.constantFrom(...TAG_POOL), { maxLength: 3 });

const fieldArb: fc.Arbitrary<FieldRef> = fc.oneof(
  fc.constantFrom(...(Object.keys(FILTER_COLUMNS) as FilterColumn[])).map((name): FieldRef => ({ kind: 'column', name })),
  fc
    .constantFrom(['k1'], ['k2'], ['nested'], ['nested', 'k1'], ['k1', 'k2'], ['absent'])
    .map((path): FieldRef => ({ kind: 'meta', path: [...path] })),
);

/** Values a field is compared with: for `ts`, numbers near the docs' times; otherwise the scalar pool. */
function valueFor(field: FieldRef): fc.Arbitrary<Scalar> {
  if (field.kind === 'column' && FILTER_COLUMNS[field.name] === 'time') return fc.oneof(fc.constantFrom(...TS_POOL), scalarArb);
  if (field.kind === 'column' && (field.name === 'importance' || field.name === 'confidence')) {
    return fc.oneof(fc.constantFrom(...UNIT_POOL), scalarArb);
  }
  return scalarArb;
}

export const TS_POOL = [1_700_000_000_000, 1_700_000_001_000, 1_700_000_002_000] as const;
export const UNIT_POOL = [0, 0.25, 0.5, 1] as const;

const leafArb: fc.Arbitrary<FilterNode> = fieldArb.chain((field) =>
  fc.oneof(
    fc.record({
      op: fc.constant('cmp' as const),
      field: fc.constant(field),
      cmp: fc.constantFrom('eq', 'ne', 'gt', 'gte', 'lt', 'lte' as const),
      value: valueFor(field),
    }),
    fc.record({ op: fc.constantFrom('in', 'nin' as const), field: fc.constant(field), values: fc.array(valueFor(field), { maxLength: 3 }) }),
    fc.record({
      op: fc.constant('contains' as const),
      field: fc.constant(field),
      values: fc.array(valueFor(field), { maxLength: 3 }),
      mode: fc.constantFrom('any', 'all' as const),
    }),
    fc.record({ op: fc.constant('exists' as const), field: fc.constant(field), value: fc.boolean() }),
  ),
);

/** Random filter trees up to a small depth (and/or with 0..3 children, not). */
export const filterArb: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.record({ op: fc.constantFrom('and', 'or' as const), children: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ op: fc.constant('not' as const), child: tie('node') }),
  ),
})).node;

const optString = fc.option(fc.constantFrom(...STRINGS), { nil: undefined });

/** Docs over every filterable column, with values drawn from the same pools the filters use (every engine's filter test). */
export const docArb: fc.Arbitrary<Omit<Doc, 'docId'>> = fc.record({
  tenant: fc.constant('t'),
  userId: optString,
  agentId: optString,
  sessionId: optString,
  taskId: optString,
  kind: fc.constantFrom(...DOC_KINDS),
  refId: fc.constant('r'),
  text: fc.constant('text'),
  ts: fc.constantFrom(...TS_POOL),
  importance: fc.constantFrom(...UNIT_POOL),
  type: optString,
  actor: optString,
  source: optString,
  section: optString,
  stateLabel: optString,
  tags: tagsArb,
  pii: fc.boolean(),
  metadata: metadataArb,
  contentHash: fc.constant('h'),
  expiresAt: fc.constant(undefined),
  confidence: fc.constantFrom(...UNIT_POOL),
});
