import type { Db } from '../../db/client.ts';
import { randomCode } from '../../lib/crypto.ts';
import type { Logger } from '../../lib/logger.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { InvitesRepo, MintedInvite } from '../auth/invites.repo.ts';
import type { UsersRepo } from '../users/users.repo.ts';

export interface AdminUserView {
  id: number;
  account: string;
  username: string;
  email: string | null;
  phone: string | null;
  role: string;
  status: string;
  points: number;
  loginCount: number;
  lastLoginAt: string | null;
  createdAt: string;
}

/** Operations only admins may run. Every route using it is guarded by the admin check. */
export class AdminService {
  private readonly usersRepo: UsersRepo;
  private readonly invites: InvitesRepo;
  private readonly logger: Logger;
  constructor(deps: { db: Db; logger: Logger; usersRepo: UsersRepo; invites: InvitesRepo; auth: AuthService }) {
    this.usersRepo = deps.usersRepo;
    this.invites = deps.invites;
    this.logger = deps.logger;
  }

  async mintInviteCodes(
    adminId: number,
    options: { count: number; maxUses: number | null; expiresInDays: number | null; note: string | null },
  ): Promise<string[]> {
    const codes: string[] = [];
    while (codes.length < options.count) {
      const code = randomCode(8);
      if (await this.usersRepo.inviteCodeTaken(code)) continue;
      await this.invites.insert({
        code,
        createdBy: adminId,
        maxUses: options.maxUses,
        expiresAt: options.expiresInDays ? new Date(Date.now() + options.expiresInDays * 86_400_000) : null,
        note: options.note,
      });
      codes.push(code);
    }
    this.logger.info({ adminId, count: codes.length }, 'invitation codes minted');
    return codes;
  }

  listInviteCodes(): Promise<MintedInvite[]> {
    return this.invites.list();
  }

  async findUsersByName(username: string): Promise<AdminUserView[]> {
    const rows = await this.usersRepo.searchByUsername(username);
    return rows.map((u) => ({
      id: u.id,
      account: u.account,
      username: u.username,
      email: u.email,
      phone: u.phone,
      role: u.role,
      status: u.status,
      points: Number(u.points_balance),
      loginCount: u.login_count,
      lastLoginAt: u.last_login_at?.toISOString() ?? null,
      createdAt: u.created_at.toISOString(),
    }));
  }
}
