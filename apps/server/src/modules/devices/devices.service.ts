import { MAX_DEVICE_PASSWORDS, type CreatedDevicePassword, type DevicePassword } from '@yidu/shared';
import type { Config } from '../../config/env.ts';
import type { UserRow } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import { AccessCache, type AccessEvents } from '../../lib/access-events.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { deviceKeyHmac, isMd5Hex, md5Hex, newDevicePassword } from './device-keys.ts';
import type { DevicePasswordRow, DevicesRepo } from './devices.repo.ts';

/** The two doors a device password opens, and nothing else (never the API). */
export type DeviceDoor = 'opds' | 'kosync';

export interface DeviceCaller {
  ip: string;
  door: DeviceDoor;
  /** The device's own name, when it gives one (KOReader's progress pushes do). */
  deviceName?: string | undefined;
}

interface Deps {
  repo: DevicesRepo;
  limiter: RateLimiter;
  config: Config;
  access?: AccessEvents | undefined;
}

/** How long a checked password may be trusted from memory (a revocation drops it at once). */
const CACHE_MS = 60_000;
const CACHE_SIZE = 10_000;
/** "Last used" is written at most this often per password: devices ask many times a minute. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Device passwords: made in the personal center, listed without their secret, revoked at once, and
 * checked for the OPDS catalogs (HTTP Basic) and KOReader's progress sync (md5 in x-auth-key).
 *
 * Guessing is limited per IP address like logins: each check of an unknown password takes a slot of
 * the address's failures before it looks (RateLimiter.take), and a right one gives it back, so that
 * no more than the limit are ever checked however many arrive at once. A password that was revoked
 * is not a guess and does not count (a forgotten e-reader still syncing must not lock out the
 * household). Passwords already checked are served from memory until a change of the user or of
 * their passwords is announced (AccessEvents), so a device's many requests cost one lookup.
 */
export class DevicesService {
  private readonly d: Deps;
  private readonly checked: AccessCache<{ userId: number; user: UserRow; deviceId: string }>;
  private readonly touched = new Map<string, number>();
  constructor(deps: Deps) {
    this.d = deps;
    this.checked = new AccessCache(deps.access, { maxEntries: CACHE_SIZE, maxAgeMs: CACHE_MS });
  }

  async create(user: UserRow, name: string): Promise<CreatedDevicePassword> {
    const password = newDevicePassword();
    const row = await this.d.repo.insertWithin(user.id, MAX_DEVICE_PASSWORDS, {
      name: name.trim(),
      key_hmac: this.keyOf(md5Hex(password)),
    });
    if (!row) throw fail('tooManyDevicePasswords', { max: MAX_DEVICE_PASSWORDS });
    return { id: Number(row.id), name: row.name, username: user.account, password };
  }

  async list(user: UserRow): Promise<DevicePassword[]> {
    return (await this.d.repo.listLive(user.id)).map(present);
  }

  async revoke(user: UserRow, id: number): Promise<void> {
    if (!(await this.d.repo.revoke(user.id, id))) throw fail('notFound');
  }

  /** The user whose device password this is (given as its md5), or undefined; tooManyRequests past the limit. */
  async authenticate(username: string, passwordMd5: string, caller: DeviceCaller): Promise<UserRow | undefined> {
    const login = username.trim().toLowerCase();
    const key = isMd5Hex(passwordMd5) ? this.keyOf(passwordMd5) : undefined;
    const cacheKey = `${key}:${login}`;
    const hit = key ? this.checked.get(cacheKey) : undefined;
    if (hit) {
      this.touch(hit.deviceId, caller);
      return hit.user;
    }
    const generation = this.checked.generation;
    const { maxFailuresPerIp, lockMinutes } = this.d.config.login;
    const slotKey = `devices:ip:${caller.ip}`;
    const slot = await this.d.limiter.take(slotKey, maxFailuresPerIp, { seconds: lockMinutes * 60 });
    if (!slot.allowed) throw fail('tooManyRequests', { retryAfter: slot.retryAfter });
    const found = key ? await this.d.repo.findByKey(key) : undefined;
    if (!found || !isLoginOf(found.user, login) || found.user.status !== 'active') return undefined;
    await this.d.limiter.giveBack(slotKey);
    if (found.device.revoked_at) return undefined;
    this.checked.set(cacheKey, { userId: found.user.id, user: found.user, deviceId: found.device.id }, generation);
    this.touch(found.device.id, caller);
    return found.user;
  }

  /** What is stored of a password, from its md5. */
  private keyOf(passwordMd5: string): string {
    return deviceKeyHmac(this.d.config.appSecret, passwordMd5);
  }

  private touch(deviceId: string, caller: DeviceCaller): void {
    const now = Date.now();
    if (now - (this.touched.get(deviceId) ?? 0) < TOUCH_EVERY_MS) return;
    if (this.touched.size >= CACHE_SIZE) this.touched.clear();
    this.touched.set(deviceId, now);
    const usedBy = caller.deviceName ? `${caller.door}: ${caller.deviceName}` : caller.door;
    void this.d.repo.touch(deviceId, usedBy).catch(() => this.touched.delete(deviceId));
  }
}

/** Whether `login` (lower case) is one of the user's names: the account, the email or the phone. */
function isLoginOf(user: UserRow, login: string): boolean {
  return [user.account, user.email, user.phone].some((name) => name !== null && name.toLowerCase() === login);
}

function present(row: DevicePasswordRow): DevicePassword {
  return {
    id: Number(row.id),
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    lastUsedBy: row.last_used_by,
  };
}
