import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../../lib/logger.ts';
import { writeFileAtomic } from '../storage/disk.ts';
import type { MailTemplate } from './templates.ts';

/** What the `mail.send` job carries: the template and its values, rendered by the worker. */
export interface MailJob {
  to: string;
  template: MailTemplate;
  /** Interface language of the recipient (zh, en, de, es, fr, jp, ko). */
  language: string;
  params: Record<string, string>;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly name: string;
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** Real delivery through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export class SmtpMailer implements Mailer {
  readonly name = 'smtp';
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(smtpUrl: string, from: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
    this.from = from;
  }

  async send(mail: OutgoingMail): Promise<{ messageId: string }> {
    const info = await this.transport.sendMail({ from: this.from, ...mail });
    return { messageId: info.messageId };
  }

  close(): void {
    this.transport.close();
  }
}

/**
 * The development outbox used when no SMTP server is configured: nodemailer builds the real
 * message and it is written as an .eml file under DATA_DIR/outbox/, where any mail client opens it.
 */
export class OutboxMailer implements Mailer {
  readonly name = 'outbox';
  private readonly transport: Transporter;
  private readonly from: string;
  private readonly dir: string;
  private readonly logger: Logger;

  constructor(dir: string, from: string, logger: Logger) {
    this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    this.from = from;
    this.dir = dir;
    this.logger = logger;
  }

  async send(mail: OutgoingMail): Promise<{ messageId: string }> {
    const info = await this.transport.sendMail({ from: this.from, ...mail });
    await mkdir(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.dir, `${stamp}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 24)}.eml`);
    await writeFileAtomic(file, info.message as Buffer);
    const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
    this.logger.info({ to: mail.to, subject: mail.subject, file, links }, 'mail written to the outbox');
    return { messageId: info.messageId };
  }

  close(): void {
    this.transport.close();
  }
}
