/**
 * Every area of the API, registered in this order by app.ts. A new area (outcomes, episodes, links,
 * procedures, examples, working memory, MCP at /mcp) is one module file plus one line here; auth, rate
 * limits, body limits, errors and request logs apply to it without further work.
 */
import type { RouteModule } from '../env.js';
import { adminKeyRoutes } from './admin-keys.js';
import { episodeRoutes } from './episodes.js';
import { eventRoutes } from './events.js';
import { factListRoutes } from './fact-list.js';
import { exampleRoutes } from './examples.js';
import { factRoutes } from './facts.js';
import { forgetRoutes } from './forget.js';
import { graphRoutes } from './graph.js';
import { healthRoutes } from './health.js';
import { learnRoutes } from './learn.js';
import { logRoutes } from './logs.js';
import { mcpRoutes } from './mcp.js';
import { memoryRoutes } from './memories.js';
import { meRoutes } from './me.js';
import { procedureRoutes } from './procedures.js';
import { retrievalRoutes } from './retrieval.js';
import { transferRoutes } from './transfer.js';
import { uiRoutes } from './ui.js';
import { workingRoutes } from './working.js';

export const ROUTE_MODULES: readonly RouteModule[] = [
  healthRoutes,
  meRoutes,
  eventRoutes,
  factRoutes,
  factListRoutes,
  memoryRoutes,
  retrievalRoutes,
  learnRoutes,
  logRoutes,
  episodeRoutes,
  procedureRoutes,
  exampleRoutes,
  workingRoutes,
  graphRoutes,
  forgetRoutes,
  transferRoutes,
  adminKeyRoutes,
  mcpRoutes,
  uiRoutes,
];
