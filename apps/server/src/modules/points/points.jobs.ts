import type { JobQueue } from '../../jobs/queue.ts';
import type { PointsService } from './points.service.ts';

/** The worker's points housekeeping: holds left by processes that died are resolved every minute. */
export function registerPointsJobs(queue: JobQueue, points: PointsService): void {
  queue.handle('points.sweepHolds', async () => {
    await points.sweepExpired();
  });
}
