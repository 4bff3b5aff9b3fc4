import type { JobQueue } from '../../jobs/queue.ts';
import type { IntegrationsService } from './integrations.service.ts';

/** Pushes a reader's new highlights and notes to Readwise. */
export function registerIntegrationsJobs(queue: JobQueue, integrations: IntegrationsService): void {
  queue.handle('readwise.push', (job) => integrations.runPush(job.userId));
}
