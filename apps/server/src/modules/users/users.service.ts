import {
  findLanguage,
  normalizeName,
  ReaderSettings,
  TabsState,
  type UpdateUserinfoBody,
  type UserInfo,
  type VeteranResult,
} from '@yidu/shared';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { ImageError, imageKind, squareJpeg } from '../../engines/images/images.ts';
import type { FileStorage } from '../../engines/storage/storage.ts';
import { fail } from '../../http/errors.ts';
import type { AccessEvents } from '../../lib/access-events.ts';
import type { Logger } from '../../lib/logger.ts';
import { verifyPassword } from '../../lib/password.ts';
import type { Authenticated, AuthService } from '../auth/auth.service.ts';
import type { UsersRepo } from './users.repo.ts';
import { assertFitName } from './fit-name.ts';
import { toUserInfo, type AvatarUrl } from './users.presenter.ts';

/** The current user's own record: reading it, changing it, the language and the password. */
export class UsersService {
  private readonly usersRepo: UsersRepo;
  private readonly auth: AuthService;
  private readonly enabledEngines: () => string[];
  private readonly avatarUrl: AvatarUrl;
  private readonly storage: FileStorage;
  private readonly db: Db;
  private readonly logger: Logger;
  private readonly access: AccessEvents | undefined;
  constructor(deps: {
    usersRepo: UsersRepo;
    auth: AuthService;
    enabledEngines: () => string[];
    avatarUrl: AvatarUrl;
    storage: FileStorage;
    db: Db;
    logger: Logger;
    access?: AccessEvents;
  }) {
    this.usersRepo = deps.usersRepo;
    this.auth = deps.auth;
    this.enabledEngines = deps.enabledEngines;
    this.avatarUrl = deps.avatarUrl;
    this.storage = deps.storage;
    this.db = deps.db;
    this.logger = deps.logger;
    this.access = deps.access;
  }

  /** A new avatar: any common image, cropped to its centre square, 256 px, re-encoded (no EXIF). */
  async setAvatar(auth: Authenticated, data: Buffer): Promise<UserInfo> {
    if (data.length > 10 * 1024 * 1024) throw fail('imageTooLarge');
    if (!imageKind(data)) throw fail('notAnImage');
    let avatar;
    try {
      avatar = await squareJpeg(data, 256);
    } catch (error) {
      if (error instanceof ImageError) throw fail('notAnImage', { detail: error.message });
      throw error;
    }
    const key = `avatars/${randomBytes(12).toString('hex')}.jpg`;
    await this.storage.put(key, avatar);
    const previous = auth.user.avatar;
    const updated = await this.usersRepo.update(auth.user.id, { avatar: key });
    if (previous?.startsWith('avatars/')) await this.storage.delete(previous).catch(() => {});
    return toUserInfo(updated!, this.avatarUrl);
  }

  /**
   * Deletes the account and what is only the user's: sessions, library, marks, points, private
   * uploads nobody else has. Public books they uploaded stay for their readers, without an owner.
   */
  async deleteAccount(auth: Authenticated, password: string): Promise<void> {
    if (!(await verifyPassword(auth.user.password_hash, password))) throw fail('wrongPassword');
    await this.db.transaction().execute(async (trx) => {
      await sql`
        DELETE FROM books b WHERE b.owner_id = ${auth.user.id}
          AND NOT (b.visibility = 1 AND NOT b.public_deleted)
          AND NOT EXISTS (SELECT 1 FROM user_books ub WHERE ub.book_id = b.id AND ub.user_id <> ${auth.user.id})`.execute(
        trx,
      );
      await trx.deleteFrom('users').where('id', '=', auth.user.id).execute();
    });
    // The deleted books are forgotten with their notifications; the sessions must be at once.
    this.access?.emit({ userId: auth.user.id });
    if (auth.user.avatar?.startsWith('avatars/')) await this.storage.delete(auth.user.avatar).catch(() => {});
    this.logger.info({ userId: auth.user.id }, 'account deleted');
  }

  getInfo(auth: Authenticated): UserInfo {
    return toUserInfo(auth.user, this.avatarUrl);
  }

  async update(auth: Authenticated, body: UpdateUserinfoBody): Promise<UserInfo> {
    let commonLanguages: string[] | undefined;
    if (body.commonLanguages) {
      commonLanguages = [];
      for (const name of body.commonLanguages) {
        const language = findLanguage(name);
        if (!language) throw fail('noSuchLanguage', { language: name });
        if (!commonLanguages.includes(language.name)) commonLanguages.push(language.name);
      }
    }
    if (body.translationEngine && !this.enabledEngines().includes(body.translationEngine)) {
      throw fail('badRequest', { reason: 'engineNotEnabled', engines: this.enabledEngines() });
    }
    let username: string | undefined;
    if (body.username !== undefined) {
      username = normalizeName(body.username);
      assertFitName(username, { allowReserved: auth.user.role === 'admin' });
      if (await this.usersRepo.usernameTaken(username, auth.user.id)) throw fail('usernameTaken');
    }
    const nickname = body.nickname === undefined ? undefined : normalizeName(body.nickname ?? '') || null;
    if (nickname) assertFitName(nickname, { allowReserved: auth.user.role === 'admin' });
    const updated = await this.usersRepo
      .update(auth.user.id, {
        ...(body.translationEngine !== undefined ? { translation_engine: body.translationEngine } : {}),
        ...(body.showNameOnShares !== undefined ? { show_name_on_shares: body.showNameOnShares } : {}),
        ...(username !== undefined ? { username } : {}),
        ...(nickname !== undefined ? { nickname } : {}),
        ...(commonLanguages ? { common_languages: commonLanguages } : {}),
        ...(body.defaultSharePublic !== undefined ? { default_share_public: body.defaultSharePublic } : {}),
        ...(body.deductMode !== undefined ? { deduct_mode: body.deductMode } : {}),
      })
      .catch((error: unknown) => {
        // Another reader took the name a moment ago: the unique index decided.
        if ((error as { constraint?: string }).constraint === 'users_username_key') throw fail('usernameTaken');
        throw error;
      });
    return toUserInfo(updated!, this.avatarUrl);
  }

  async changeLanguage(auth: Authenticated, name: string): Promise<UserInfo> {
    const language = findLanguage(name);
    if (!language) throw fail('noSuchLanguage');
    return toUserInfo((await this.usersRepo.update(auth.user.id, { language: language.name }))!, this.avatarUrl);
  }

  changePassword(auth: Authenticated, oldPassword: string, password: string): Promise<void> {
    return this.auth.changePassword(auth, oldPassword, password);
  }

  readerSettings(auth: Authenticated): ReaderSettings {
    return ReaderSettings.parse(auth.user.reader_settings ?? {});
  }

  async saveReaderSettings(auth: Authenticated, changes: Partial<ReaderSettings>): Promise<ReaderSettings> {
    const next = ReaderSettings.parse({ ...this.readerSettings(auth), ...changes });
    await this.usersRepo.update(auth.user.id, { reader_settings: JSON.stringify(next) });
    return next;
  }

  tabs(auth: Authenticated): TabsState {
    const parsed = TabsState.safeParse({
      tabs: auth.user.tabs ?? [],
      active: (auth.user.reader_settings as { activeTab?: string })?.activeTab,
    });
    return parsed.success ? parsed.data : { tabs: [], active: 'newTab' };
  }

  async saveTabs(auth: Authenticated, state: TabsState): Promise<TabsState> {
    const unique = [...new Map(state.tabs.map((t) => [t.bookCode, t])).values()];
    await this.usersRepo.update(auth.user.id, {
      tabs: JSON.stringify(unique),
      reader_settings: JSON.stringify({ ...(auth.user.reader_settings ?? {}), activeTab: state.active }),
    });
    return { tabs: unique, active: state.active };
  }

  /** A veteran has logged in on an earlier day; new users get the welcome guide. */
  async checkVeteran(auth: Authenticated): Promise<VeteranResult> {
    const registeredDays = Math.floor((Date.now() - auth.user.created_at.getTime()) / 86_400_000);
    return { veteran: await this.usersRepo.hasLoggedInBeforeToday(auth.user.id), registeredDays };
  }
}
