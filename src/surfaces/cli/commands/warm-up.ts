/**
 * A server loads the embedding model as it starts, so the first query does not wait for it. A load that fails
 * is worth a warning; a load the server's own shutdown cut short is not a failure, and logs at debug only.
 */
import type { Logger } from 'pino';
import { EngramError } from '../../../core/errors.js';
import type { Embedder } from '../../../ports/embedder.js';

export interface WarmUp {
  /** Stops waiting for the load (the model goes on loading until the embedder closes): call it on shutdown. */
  stop(): void;
  /** Settles (never rejects) once the load is done, failed or stopped, and was logged. */
  done: Promise<void>;
}

export function warmUpEmbedder(embedder: Pick<Embedder, 'embed'>, logger: Pick<Logger, 'warn' | 'debug'>): WarmUp {
  const stopped = new AbortController();
  const done = embedder.embed(['warm-up'], { priority: 'background', signal: stopped.signal }).then(
    () => logger.debug('embedding model loaded'),
    (e: unknown) => {
      if (stopped.signal.aborted) logger.debug('embedding model load left off: shutting down');
      else logger.warn({ err: e }, 'embedding model failed to load');
    },
  );
  return { stop: () => stopped.abort(new EngramError('UNAVAILABLE', 'shutting down')), done };
}
