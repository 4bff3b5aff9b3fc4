import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encrypts settings secrets (engine API keys) at rest with AES-256-GCM, under a key derived from
 * APP_SECRET. The database alone does not reveal them; changing APP_SECRET makes them unreadable.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(appSecret: string, purpose = 'yidu-settings-v1') {
    this.key = Buffer.from(hkdfSync('sha256', appSecret, 'yidu', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Undefined when the value was sealed with another secret or was tampered with. */
  open(sealed: string): string | undefined {
    if (!sealed.startsWith('v1:')) return undefined;
    try {
      const raw = Buffer.from(sealed.slice(3), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
