/**
 * A corpus worker thread: checks the descriptions the corpus script sends it, one at a time, and posts each
 * outcome back. Each worker has its own event loop and heap (capped by the script), so a heavy description
 * neither delays another one's answers nor takes the run down when it runs out of memory.
 */
import { parentPort } from 'node:worker_threads';
import { checkDescription, type ServeOutcome } from './serve-check.js';

export interface CorpusJob {
  readonly label: string;
  readonly path: string;
  readonly validate: boolean;
}

const port = parentPort;
if (port === null) throw new Error('corpus/worker.js runs as a worker thread of the corpus script');
port.on('message', (job: CorpusJob) => {
  void checkDescription(job.path, job.label, { validate: job.validate, tokens: true })
    .catch((error: unknown): ServeOutcome => ({
      description: job.label,
      verdict: 'crashed',
      detail: (error as Error).stack?.split('\n').slice(0, 3).join(' ') ?? String(error),
      ms: 0,
    }))
    .then((outcome) => port.postMessage(outcome));
});
