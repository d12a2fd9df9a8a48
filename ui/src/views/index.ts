/**
 * The views, in navigation order. A view for a new area of the API is one entry here; `needs` is the API path
 * it reads, so a server without that area (an older one) shows no tab for it. All but the timeline load on
 * first use, so the graph and chart libraries never delay the first page.
 */
import { lazy, type ComponentType } from 'react';
import { Timeline } from './Timeline';

export type ViewId = 'timeline' | 'episodes' | 'facts' | 'procedures' | 'examples' | 'working-memory' | 'playground' | 'retrievals' | 'audit' | 'entities';

export interface ViewDef {
  id: ViewId;
  label: string;
  needs: string;
  component: ComponentType;
}

export const VIEWS: readonly ViewDef[] = [
  { id: 'timeline', label: 'Timeline', needs: '/v1/events', component: Timeline },
  { id: 'episodes', label: 'Episodes', needs: '/v1/episodes', component: lazy(() => import('./Episodes').then((m) => ({ default: m.Episodes }))) },
  { id: 'facts', label: 'Facts', needs: '/v1/facts/history', component: lazy(() => import('./Facts').then((m) => ({ default: m.Facts }))) },
  { id: 'entities', label: 'Entities', needs: '/v1/relations', component: lazy(() => import('./Entities').then((m) => ({ default: m.Entities }))) },
  { id: 'procedures', label: 'Procedures', needs: '/v1/procedures', component: lazy(() => import('./Procedures').then((m) => ({ default: m.Procedures }))) },
  { id: 'examples', label: 'Examples', needs: '/v1/examples', component: lazy(() => import('./Examples').then((m) => ({ default: m.Examples }))) },
  {
    id: 'working-memory',
    label: 'Working memory',
    needs: '/v1/sessions/{session_id}/working-memory',
    component: lazy(() => import('./WorkingMemory').then((m) => ({ default: m.WorkingMemory }))),
  },
  { id: 'playground', label: 'Retrieval playground', needs: '/v1/context', component: lazy(() => import('./Playground').then((m) => ({ default: m.Playground }))) },
  { id: 'retrievals', label: 'Retrieval log', needs: '/v1/retrievals', component: lazy(() => import('./Retrievals').then((m) => ({ default: m.Retrievals }))) },
  { id: 'audit', label: 'Audit log', needs: '/v1/audit', component: lazy(() => import('./Audit').then((m) => ({ default: m.Audit }))) },
];
