import type { Config } from './config/env.ts';
import type { Db } from './db/client.ts';
import type { SmsSender } from './engines/sms/sms.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Logger } from './lib/logger.ts';
import { RateLimiter } from './lib/rate-limiter.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { CodesRepo } from './modules/auth/codes.repo.ts';
import { InvitesRepo } from './modules/auth/invites.repo.ts';
import { SessionsRepo } from './modules/auth/sessions.repo.ts';
import { PointsRepo } from './modules/points/points.repo.ts';
import { UsersRepo } from './modules/users/users.repo.ts';
import { UsersService } from './modules/users/users.service.ts';
import { AdminService } from './modules/admin/admin.service.ts';

/** What the process has once it has booted: configuration, database, queue and engines. */
export interface Infrastructure {
  config: Config;
  db: Db;
  queue: JobQueue;
  logger: Logger;
  sms: SmsSender;
}

/** Services wired once per process; routes and jobs receive this. */
export interface Services {
  auth: AuthService;
  users: UsersService;
  admin: AdminService;
  limiter: RateLimiter;
}

export function createServices(infra: Infrastructure): Services {
  const usersRepo = new UsersRepo(infra.db);
  const sessions = new SessionsRepo(infra.db);
  const codes = new CodesRepo(infra.db);
  const invites = new InvitesRepo(infra.db);
  const points = new PointsRepo();
  const limiter = new RateLimiter(infra.db);
  const auth = new AuthService({ ...infra, usersRepo, sessions, codes, invites, points, limiter });
  return {
    auth,
    users: new UsersService({ usersRepo, auth }),
    admin: new AdminService({ ...infra, usersRepo, invites, auth }),
    limiter,
  };
}
