/** The views, in navigation order. A view for a new area of the API is one entry here. */
import type { ComponentType } from 'react';
import { Facts } from './Facts';
import { Playground } from './Playground';
import { Timeline } from './Timeline';

export type ViewId = 'timeline' | 'facts' | 'playground';

export const VIEWS: readonly { id: ViewId; label: string; component: ComponentType }[] = [
  { id: 'timeline', label: 'Timeline', component: Timeline },
  { id: 'facts', label: 'Facts', component: Facts },
  { id: 'playground', label: 'Retrieval playground', component: Playground },
];
