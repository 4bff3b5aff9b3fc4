import {
  findLanguage,
  ReaderSettings,
  TabsState,
  type UpdateUserinfoBody,
  type UserInfo,
  type VeteranResult,
} from '@yidu/shared';
import { fail } from '../../http/errors.ts';
import type { Authenticated, AuthService } from '../auth/auth.service.ts';
import type { UsersRepo } from './users.repo.ts';
import { toUserInfo } from './users.presenter.ts';

/** The current user's own record: reading it, changing it, the language and the password. */
export class UsersService {
  private readonly usersRepo: UsersRepo;
  private readonly auth: AuthService;
  private readonly enabledEngines: () => string[];
  constructor(deps: { usersRepo: UsersRepo; auth: AuthService; enabledEngines: () => string[] }) {
    this.usersRepo = deps.usersRepo;
    this.auth = deps.auth;
    this.enabledEngines = deps.enabledEngines;
  }

  getInfo(auth: Authenticated): UserInfo {
    return toUserInfo(auth.user);
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
    const updated = await this.usersRepo.update(auth.user.id, {
      ...(body.translationEngine !== undefined ? { translation_engine: body.translationEngine } : {}),
      ...(body.username !== undefined ? { username: body.username } : {}),
      ...(body.nickname !== undefined ? { nickname: body.nickname || null } : {}),
      ...(commonLanguages ? { common_languages: commonLanguages } : {}),
      ...(body.defaultSharePublic !== undefined ? { default_share_public: body.defaultSharePublic } : {}),
      ...(body.deductMode !== undefined ? { deduct_mode: body.deductMode } : {}),
    });
    return toUserInfo(updated!);
  }

  async changeLanguage(auth: Authenticated, name: string): Promise<UserInfo> {
    const language = findLanguage(name);
    if (!language) throw fail('noSuchLanguage');
    return toUserInfo((await this.usersRepo.update(auth.user.id, { language: language.name }))!);
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
