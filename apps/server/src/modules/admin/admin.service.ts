import type { AuditAction } from '@yidu/shared/audit';
import { statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { randomCode } from '../../lib/crypto.ts';
import type { Logger } from '../../lib/logger.ts';
import type { AuthService, Caller } from '../auth/auth.service.ts';
import type { InvitesRepo, MintedInvite } from '../auth/invites.repo.ts';
import type { UsersRepo } from '../users/users.repo.ts';
import { AdminStats, type Day } from './admin.stats.ts';

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
  private readonly db: Db;
  private readonly auth: AuthService;
  private readonly queue: JobQueue;
  private readonly storage: FileStorage;
  private readonly config: Config;
  readonly stats: AdminStats;
  private readonly enabledEngines: () => string[];
  private readonly aiConfigured: () => boolean;
  constructor(deps: {
    db: Db;
    logger: Logger;
    usersRepo: UsersRepo;
    invites: InvitesRepo;
    auth: AuthService;
    queue: JobQueue;
    storage: FileStorage;
    config: Config;
    enabledEngines: () => string[];
    /** Whether the AI aids have a model now (admins set it at run time). */
    aiConfigured?: () => boolean;
  }) {
    this.usersRepo = deps.usersRepo;
    this.invites = deps.invites;
    this.logger = deps.logger;
    this.db = deps.db;
    this.auth = deps.auth;
    this.queue = deps.queue;
    this.storage = deps.storage;
    this.config = deps.config;
    this.enabledEngines = deps.enabledEngines;
    this.aiConfigured = deps.aiConfigured ?? (() => deps.config.llm !== undefined);
    this.stats = new AdminStats(deps.db);
  }

  /** Sensitive operations leave a trace: who, what, on what, from where. */
  async audit(
    admin: UserRow,
    action: AuditAction,
    target: string | null,
    detail: Record<string, unknown> | null,
    caller?: Caller,
  ): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        admin_id: admin.id,
        action,
        target,
        detail: detail ? JSON.stringify(detail) : null,
        ip: caller?.ip ?? null,
      })
      .execute();
    this.logger.info({ adminId: admin.id, action, target }, 'admin action');
  }

  async auditLog(limit = 200) {
    const rows = await this.db
      .selectFrom('audit_log as a')
      .leftJoin('users as u', 'u.id', 'a.admin_id')
      .select(['a.id', 'a.action', 'a.target', 'a.detail', 'a.ip', 'a.created_at', 'u.username as admin'])
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      action: r.action,
      target: r.target,
      detail: r.detail,
      ip: r.ip,
      admin: r.admin,
      createdAt: r.created_at.toISOString(),
    }));
  }

  private async usersMatching(field: 'username' | 'account', value: string): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', [field]), '=', value.toLowerCase()))
      .limit(20)
      .execute();
  }

  /** Failed pipeline stages and failed translations of a user, with their messages. */
  async errorsBy(field: 'username' | 'account', value: string) {
    const users = await this.usersMatching(field, value);
    if (users.length === 0) throw fail('noSuchAccount');
    const errors = await this.stats.errorsOf(users.map((u) => u.id));
    return { users: users.map((u) => ({ id: u.id, account: u.account, username: u.username })), ...errors };
  }

  async uploadsByUsername(username: string) {
    const users = await this.usersRepo.searchByUsername(username, 20);
    if (users.length === 0) return [];
    const rows = await this.db
      .selectFrom('upload_requests as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .innerJoin('files as f', 'f.id', 'r.file_id')
      .leftJoin('books as b', 'b.id', 'r.book_id')
      .select([
        'r.id as requestId',
        'u.username',
        'u.account',
        'r.book_name as bookName',
        'b.code as bookCode',
        'r.book_status as bookStatus',
        'r.stage',
        'r.status',
        'r.error_key as errorKey',
        'f.id as fileId',
        'f.original_name as fileName',
        'f.format',
        'f.size',
        'r.created_at as createdAt',
      ])
      .where(
        'r.user_id',
        'in',
        users.map((u) => u.id),
      )
      .orderBy('r.created_at', 'desc')
      .limit(500)
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size), createdAt: r.createdAt.toISOString() }));
  }

  /**
   * An original book file. `bookFilePath` must name a stored file (its id or storage key) exactly:
   * it is looked up in the database, never joined onto a path, so '../' leads nowhere.
   */
  async download(
    admin: UserRow,
    bookFilePath: string,
    caller: Caller,
  ): Promise<{ stream: Readable; filename: string; size: number }> {
    const file = await this.db
      .selectFrom('files')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', bookFilePath), eb('storage_key', '=', bookFilePath)]))
      .executeTakeFirst();
    if (!file) throw fail('notFound');
    await this.audit(admin, 'download', file.id, { name: file.original_name }, caller);
    return {
      stream: await this.storage.stream(file.storage_key),
      filename: file.original_name,
      size: Number(file.size),
    };
  }

  /** A short-lived session as the user (support), visible to them in their sessions list. */
  async userToken(
    admin: UserRow,
    account: string,
    caller: Caller,
  ): Promise<{ token: string; expiresInSeconds: number; userId: number }> {
    const user = await this.usersRepo.findByLogin(account);
    if (!user) throw fail('noSuchAccount');
    const ttl = 30 * 60;
    const token = await this.auth.openSession(user.id, caller, 'impersonation', ttl * 1000);
    await this.audit(admin, 'getUserToken', String(user.id), { account: user.account }, caller);
    return { token, expiresInSeconds: ttl, userId: user.id };
  }

  /** Gives a book to a user (it appears in their personal library). */
  async addBook(admin: UserRow, bookCode: string, userId: number, caller: Caller) {
    const book = await this.db.selectFrom('books').selectAll().where('code', '=', bookCode).executeTakeFirst();
    if (!book || book.status !== 'ready') throw fail('bookNotFound');
    const user = await this.usersRepo.findById(userId);
    if (!user) throw fail('notFound');
    await this.db
      .insertInto('user_books')
      .values({
        user_id: userId,
        book_id: book.id,
        title: book.title,
        author: book.author,
        description: book.description,
        source: 'admin',
      })
      .onConflict((oc) => oc.columns(['user_id', 'book_id']).doNothing())
      .execute();
    await this.audit(admin, 'addBook', String(userId), { bookCode }, caller);
    return { bookCode, userId };
  }

  /**
   * Disables or enables an account, or changes its role. Disabling ends the account's sessions for
   * good: re-enabling it later must not bring back a token someone may have taken meanwhile.
   */
  async setUser(
    admin: UserRow,
    userId: number,
    changes: { status?: 'active' | 'disabled' | undefined; role?: 'user' | 'admin' | undefined },
    caller: Caller,
  ) {
    if (userId === admin.id && (changes.status === 'disabled' || changes.role === 'user'))
      throw fail('badRequest', { reason: 'notYourself' });
    const updated = await this.usersRepo.update(userId, {
      ...(changes.status ? { status: changes.status } : {}),
      ...(changes.role ? { role: changes.role } : {}),
    });
    if (!updated) throw fail('notFound');
    if (changes.status === 'disabled') await this.auth.revokeAllSessions(userId);
    await this.audit(admin, 'setUser', String(userId), changes, caller);
    return (await this.findUsersByName(updated.username)).find((u) => u.id === userId)!;
  }

  /** The queue's round trip: a job sent now, picked up and completed by a worker. */
  async queueRoundTrip(): Promise<{ ok: boolean; roundTripMs: number; state: string | null }> {
    const started = Date.now();
    const id = await this.queue.send('system.ping', { sentAt: started });
    let state: string | undefined;
    while (Date.now() - started < 10_000) {
      state = id ? await this.queue.jobState('system.ping', id) : undefined;
      if (state === 'completed' || state === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return { ok: state === 'completed', roundTripMs: Date.now() - started, state: state ?? null };
  }

  async systemInfo() {
    const memory = process.memoryUsage();
    let disk: { totalBytes: number; freeBytes: number } | null = null;
    try {
      const fs = await statfs(this.config.dataDir);
      disk = { totalBytes: fs.blocks * fs.bsize, freeBytes: fs.bavail * fs.bsize };
    } catch {
      disk = null;
    }
    return {
      version: this.config.version,
      node: process.version,
      postgres: await this.stats.postgresVersion(),
      role: this.config.role,
      uptimeSeconds: Math.round(process.uptime()),
      memory: {
        rssBytes: memory.rss,
        heapUsedBytes: memory.heapUsed,
        systemTotalBytes: os.totalmem(),
        systemFreeBytes: os.freemem(),
      },
      cpu: { cores: os.cpus().length, loadAverage: os.loadavg() },
      dataDir: path.resolve(this.config.dataDir),
      disk,
      databaseBytes: await this.stats.databaseSize(),
      translationEngines: this.enabledEngines(),
      llmConfigured: this.aiConfigured(),
      queue: await this.stats.queue(),
    };
  }

  static today(): Day {
    return new Date().toISOString().slice(0, 10);
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
