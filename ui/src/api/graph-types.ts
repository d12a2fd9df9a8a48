/** The knowledge graph's records (entities, relations) as the API sends them: the types generated from its document. */
import type { components } from '../../../src/client/schema';

export type GraphEntity = components['schemas']['Entity'];
export type GraphRelation = components['schemas']['Relation'];
