/**
 * MCP resources: what a client can read into the model's context without a tool call.
 *   engram://users/{user_id}/profile — the user's live facts and preferences
 *   engram://episodes/recent         — the latest episodes (of the server's default user, if it has one)
 * The tenant is the server's (transport-fixed); a resource never reads another tenant.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Episode, Fact } from '../../core/types.js';
import { need, iso, type ToolEnv } from './tool.js';

const PROFILE_LIMIT = 200;
const EPISODE_LIMIT = 20;

export function profileText(userId: string, facts: readonly Fact[]): string {
  if (facts.length === 0) return `No stored facts about ${userId} yet.`;
  const lines = facts.map((f) => `- ${f.text} (${f.kind}, confidence ${f.confidence.toFixed(2)}, ${f.id})`);
  return `What is known about ${userId}:\n${lines.join('\n')}`;
}

function episodesText(episodes: readonly Episode[]): string {
  if (episodes.length === 0) return 'No episodes yet.';
  return episodes
    .map((e) => `- [${e.outcome}] ${iso(e.endTs)} ${e.summary}${e.rootCause ? ` (root cause: ${e.rootCause})` : ''} (${e.id})`)
    .join('\n');
}

export function registerResources(server: McpServer, env: ToolEnv): void {
  const { memory, scope } = env;
  const profileUri = (userId: string) => `engram://users/${encodeURIComponent(userId)}/profile`;

  server.registerResource(
    'user-profile',
    new ResourceTemplate('engram://users/{user_id}/profile', {
      // Listing names the default user's profile only: other users are not enumerated.
      list: async () => ({ resources: scope.userId ? [{ uri: profileUri(scope.userId), name: `Profile of ${scope.userId}`, mimeType: 'text/markdown' }] : [] }),
    }),
    { title: 'User profile', description: "The user's live facts and preferences, with ids and confidence", mimeType: 'text/markdown' },
    async (uri, variables) => {
      const raw = variables.user_id;
      const userId = decodeURIComponent(Array.isArray(raw) ? raw[0]! : raw!);
      const facts = await need(memory.userFacts, 'the profile resource')({ tenant: scope.tenant, userId, limit: PROFILE_LIMIT });
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: profileText(userId, facts) }] };
    },
  );

  server.registerResource(
    'recent-episodes',
    'engram://episodes/recent',
    { title: 'Recent episodes', description: 'The latest episodes (tasks and conversations) with their outcomes, newest first', mimeType: 'text/markdown' },
    async (uri) => {
      const episodes = await need(memory.recentEpisodes, 'the episodes resource')({ tenant: scope.tenant, userId: scope.userId, limit: EPISODE_LIMIT });
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: episodesText(episodes) }] };
    },
  );
}
