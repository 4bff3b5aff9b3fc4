import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/logger.ts';
import { appendWhole } from '../storage/disk.ts';

export interface SmsSender {
  readonly name: string;
  send(to: string, text: string): Promise<void>;
}

/** Development outbox: each text is appended to DATA_DIR/outbox/sms.log and logged. */
export class OutboxSms implements SmsSender {
  readonly name = 'outbox';
  private readonly dir: string;
  private readonly logger: Logger;
  constructor(dir: string, logger: Logger) {
    this.dir = dir;
    this.logger = logger;
  }

  async send(to: string, text: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await appendWhole(
      path.join(this.dir, 'sms.log'),
      JSON.stringify({ at: new Date().toISOString(), to, text }) + '\n',
    );
    this.logger.info({ to, text }, 'SMS written to the outbox');
  }
}

/**
 * A generic HTTP provider: POSTs {to, text} as JSON to SMS_WEBHOOK_URL (with a bearer token when set).
 * Most SMS gateways, or a small adapter in front of one, accept this.
 */
export class WebhookSms implements SmsSender {
  readonly name = 'webhook';
  private readonly url: string;
  private readonly token: string | undefined;
  constructor(url: string, token: string | undefined) {
    this.url = url;
    this.token = token;
  }

  async send(to: string, text: string): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: JSON.stringify({ to, text }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
  }
}

/** SMS texts, short and in the recipient's interface language. */
const SMS_TEXT: Record<string, string> = {
  zh: '【译读】验证码 {code}，{minutes} 分钟内有效。请勿告诉他人。',
  en: '[Yidu] Your code is {code}. It expires in {minutes} minutes. Do not share it.',
  de: '[Yidu] Dein Code lautet {code}. Gültig für {minutes} Minuten. Gib ihn nicht weiter.',
  es: '[Yidu] Tu código es {code}. Caduca en {minutes} minutos. No lo compartas.',
  fr: '[Yidu] Votre code est {code}. Il expire dans {minutes} minutes. Ne le partagez pas.',
  jp: '【Yidu】認証コードは {code} です。有効期限は {minutes} 分です。他人に教えないでください。',
  ko: '[Yidu] 인증 코드는 {code}입니다. {minutes}분 동안 유효합니다. 다른 사람에게 알려주지 마세요.',
};

export function smsCodeText(language: string, code: string, minutes: number): string {
  return (SMS_TEXT[language] ?? SMS_TEXT.zh!).replace('{code}', code).replace('{minutes}', String(minutes));
}
