/** Server settings, parsed once at the edge (CLI flags and env in `engram serve`, or a test's literal). */
import { z } from 'zod';
import { parseWith } from '../../core/validate.js';

export const serverOptionsSchema = z
  .object({
    port: z.number().int().min(0).max(65_535).default(8080),
    /** Loopback by default: exposing the API is an explicit decision. */
    host: z.string().min(1).default('127.0.0.1'),
    /** Largest JSON request body. */
    bodyLimitBytes: z.number().int().min(1024).max(1024 ** 3).default(1024 * 1024),
    /** Largest JSONL body for POST /v1/import. */
    importLimitBytes: z.number().int().min(1024).max(4 * 1024 ** 3).default(32 * 1024 * 1024),
    rateLimit: z
      .object({
        /** Sustained requests per second per key; 0 disables rate limiting. */
        perSecond: z.number().min(0).max(1e6).default(100),
        /** Bucket size: how many requests a key may send at once after being idle. */
        burst: z.number().int().min(1).max(1e7).default(200),
      })
      .strict()
      .prefault({}),
    /**
     * Requests without a valid key (public probes, missing or bad keys), per client address. Also off when
     * `rateLimit.perSecond` is 0.
     */
    unauthenticatedRateLimit: z
      .object({
        perSecond: z.number().min(0).max(1e6).default(10),
        burst: z.number().int().min(1).max(1e7).default(50),
      })
      .strict()
      .prefault({}),
    /** How long shutdown waits for in-flight requests before closing their connections. */
    shutdownTimeoutMs: z.number().int().min(0).max(600_000).default(30_000),
    /**
     * How long an idle kept-alive connection stays open (Node's default, 5 s). Behind a load balancer or proxy
     * that keeps connections to the server, set it above the proxy's idle timeout (e.g. 65000 behind one that
     * idles at 60 s): otherwise the proxy may send a request on a connection the server is closing.
     */
    keepAliveTimeoutMs: z.number().int().min(1000).max(600_000).default(5_000),
  })
  .strict();

export type ServerOptionsInput = z.input<typeof serverOptionsSchema>;
export type ServerOptions = z.output<typeof serverOptionsSchema>;

export function parseServerOptions(input: unknown): ServerOptions {
  return parseWith(serverOptionsSchema, input ?? {}, { what: 'server options', code: 'CONFIG' });
}
