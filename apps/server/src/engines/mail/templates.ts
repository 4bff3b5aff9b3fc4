import { FALLBACK_UI_LANGUAGE, isUiLanguage, type UiLanguage } from '@yidu/shared';
import type { OutgoingMail } from './mailer.ts';

export type MailTemplate = 'activation' | 'resetCode' | 'emailChange' | 'test';

interface Wording {
  subject: string;
  lines: string[];
}

/** {name} placeholders are filled from the job's params; every template exists in all 7 UI languages. */
const TEMPLATES: Record<MailTemplate, Record<UiLanguage, Wording>> = {
  activation: {
    zh: {
      subject: '激活你的译读账号',
      lines: [
        '你好，{name}：',
        '感谢注册译读。请点击下面的链接激活账号（{hours} 小时内有效）：',
        '{link}',
        '如果这不是你本人的操作，请忽略这封邮件。',
      ],
    },
    en: {
      subject: 'Activate your Yidu account',
      lines: [
        'Hello {name},',
        'Thanks for signing up for Yidu. Open this link to activate your account (valid for {hours} hours):',
        '{link}',
        "If you didn't sign up, you can ignore this email.",
      ],
    },
    de: {
      subject: 'Aktiviere dein Yidu-Konto',
      lines: [
        'Hallo {name},',
        'danke für deine Registrierung bei Yidu. Öffne diesen Link, um dein Konto zu aktivieren (gültig für {hours} Stunden):',
        '{link}',
        'Wenn du dich nicht registriert hast, kannst du diese E-Mail ignorieren.',
      ],
    },
    es: {
      subject: 'Activa tu cuenta de Yidu',
      lines: [
        'Hola, {name}:',
        'Gracias por registrarte en Yidu. Abre este enlace para activar tu cuenta (válido durante {hours} horas):',
        '{link}',
        'Si no te has registrado, puedes ignorar este correo.',
      ],
    },
    fr: {
      subject: 'Activez votre compte Yidu',
      lines: [
        'Bonjour {name},',
        'Merci de votre inscription à Yidu. Ouvrez ce lien pour activer votre compte (valable {hours} heures) :',
        '{link}',
        "Si vous n'êtes pas à l'origine de cette inscription, ignorez simplement cet e-mail.",
      ],
    },
    jp: {
      subject: 'Yidu アカウントの有効化',
      lines: [
        '{name} 様',
        'Yidu にご登録いただきありがとうございます。次のリンクを開いてアカウントを有効化してください（有効期限：{hours} 時間）。',
        '{link}',
        'お心当たりのない場合は、このメールを破棄してください。',
      ],
    },
    ko: {
      subject: 'Yidu 계정을 활성화하세요',
      lines: [
        '{name}님, 안녕하세요.',
        'Yidu에 가입해 주셔서 감사합니다. 아래 링크를 열어 계정을 활성화해 주세요({hours}시간 동안 유효).',
        '{link}',
        '본인이 가입하지 않았다면 이 메일을 무시하셔도 됩니다.',
      ],
    },
  },
  resetCode: {
    zh: {
      subject: '译读密码重置验证码',
      lines: [
        '你好，{name}：',
        '你正在重置译读账号的密码，验证码是：',
        '{code}',
        '验证码 {minutes} 分钟内有效。如果这不是你本人的操作，请忽略这封邮件，你的密码不会改变。',
      ],
    },
    en: {
      subject: 'Your Yidu password reset code',
      lines: [
        'Hello {name},',
        'Use this code to reset your Yidu password:',
        '{code}',
        "It expires in {minutes} minutes. If you didn't ask for it, ignore this email; your password stays the same.",
      ],
    },
    de: {
      subject: 'Dein Code zum Zurücksetzen des Yidu-Passworts',
      lines: [
        'Hallo {name},',
        'mit diesem Code setzt du dein Yidu-Passwort zurück:',
        '{code}',
        'Er ist {minutes} Minuten gültig. Wenn du ihn nicht angefordert hast, ignoriere diese E-Mail; dein Passwort bleibt unverändert.',
      ],
    },
    es: {
      subject: 'Tu código para restablecer la contraseña de Yidu',
      lines: [
        'Hola, {name}:',
        'Usa este código para restablecer tu contraseña de Yidu:',
        '{code}',
        'Caduca en {minutes} minutos. Si no lo has pedido, ignora este correo; tu contraseña no cambiará.',
      ],
    },
    fr: {
      subject: 'Votre code de réinitialisation du mot de passe Yidu',
      lines: [
        'Bonjour {name},',
        'Voici votre code pour réinitialiser votre mot de passe Yidu :',
        '{code}',
        "Il expire dans {minutes} minutes. Si vous ne l'avez pas demandé, ignorez cet e-mail : votre mot de passe reste inchangé.",
      ],
    },
    jp: {
      subject: 'Yidu パスワード再設定コード',
      lines: [
        '{name} 様',
        'Yidu のパスワード再設定コードは次のとおりです。',
        '{code}',
        'コードの有効期限は {minutes} 分です。お心当たりのない場合はこのメールを破棄してください。パスワードは変更されません。',
      ],
    },
    ko: {
      subject: 'Yidu 비밀번호 재설정 코드',
      lines: [
        '{name}님, 안녕하세요.',
        'Yidu 비밀번호 재설정 코드는 다음과 같습니다.',
        '{code}',
        '코드는 {minutes}분 동안 유효합니다. 요청하지 않았다면 이 메일을 무시하세요. 비밀번호는 바뀌지 않습니다.',
      ],
    },
  },
  emailChange: {
    zh: {
      subject: '确认你的新邮箱',
      lines: [
        '你好，{name}：',
        '你正在把译读账号的邮箱改为这个地址。请点击下面的链接确认（{hours} 小时内有效）：',
        '{link}',
        '如果这不是你本人的操作，请忽略这封邮件，账号邮箱不会改变。',
      ],
    },
    en: {
      subject: 'Confirm your new email address',
      lines: [
        'Hello {name},',
        'You asked to use this address for your Yidu account. Open this link to confirm it (valid for {hours} hours):',
        '{link}',
        "If you didn't ask for this, ignore this email; nothing will change.",
      ],
    },
    de: {
      subject: 'Bestätige deine neue E-Mail-Adresse',
      lines: [
        'Hallo {name},',
        'du möchtest diese Adresse für dein Yidu-Konto verwenden. Öffne diesen Link, um sie zu bestätigen (gültig für {hours} Stunden):',
        '{link}',
        'Wenn du das nicht angefordert hast, ignoriere diese E-Mail; es ändert sich nichts.',
      ],
    },
    es: {
      subject: 'Confirma tu nueva dirección de correo',
      lines: [
        'Hola, {name}:',
        'Has pedido usar esta dirección en tu cuenta de Yidu. Abre este enlace para confirmarla (válido durante {hours} horas):',
        '{link}',
        'Si no lo has pedido, ignora este correo; no cambiará nada.',
      ],
    },
    fr: {
      subject: 'Confirmez votre nouvelle adresse e-mail',
      lines: [
        'Bonjour {name},',
        'Vous avez demandé à utiliser cette adresse pour votre compte Yidu. Ouvrez ce lien pour la confirmer (valable {hours} heures) :',
        '{link}',
        "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : rien ne changera.",
      ],
    },
    jp: {
      subject: '新しいメールアドレスの確認',
      lines: [
        '{name} 様',
        'Yidu アカウントのメールアドレスをこのアドレスに変更する手続きが行われました。次のリンクを開いて確認してください（有効期限：{hours} 時間）。',
        '{link}',
        'お心当たりのない場合はこのメールを破棄してください。変更は行われません。',
      ],
    },
    ko: {
      subject: '새 이메일 주소를 확인해 주세요',
      lines: [
        '{name}님, 안녕하세요.',
        'Yidu 계정의 이메일을 이 주소로 바꾸려고 하셨습니다. 아래 링크를 열어 확인해 주세요({hours}시간 동안 유효).',
        '{link}',
        '본인이 요청하지 않았다면 이 메일을 무시하세요. 아무것도 바뀌지 않습니다.',
      ],
    },
  },
  test: {
    zh: { subject: '译读测试邮件', lines: ['这是一封来自译读的测试邮件，说明邮件发送工作正常。'] },
    en: { subject: 'Yidu test email', lines: ['This is a test email from Yidu: mail delivery works.'] },
    de: { subject: 'Yidu-Testmail', lines: ['Dies ist eine Testmail von Yidu: Der Mailversand funktioniert.'] },
    es: { subject: 'Correo de prueba de Yidu', lines: ['Este es un correo de prueba de Yidu: el envío funciona.'] },
    fr: { subject: 'E-mail de test Yidu', lines: ["Ceci est un e-mail de test de Yidu : l'envoi fonctionne."] },
    jp: {
      subject: 'Yidu テストメール',
      lines: ['これは Yidu からのテストメールです。メール送信は正常に動作しています。'],
    },
    ko: { subject: 'Yidu 테스트 메일', lines: ['Yidu에서 보낸 테스트 메일입니다. 메일 발송이 정상적으로 작동합니다.'] },
  },
};

const fill = (text: string, params: Record<string, string>): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderMail(
  template: MailTemplate,
  language: string,
  to: string,
  params: Record<string, string>,
): OutgoingMail {
  const lang: UiLanguage = isUiLanguage(language) ? language : FALLBACK_UI_LANGUAGE;
  const wording = TEMPLATES[template][lang];
  const lines = wording.lines.map((line) => fill(line, params));
  const html = lines
    .map((line) => {
      const safe = escapeHtml(line);
      if (/^https?:\/\//.test(line)) return `<p><a href="${safe}">${safe}</a></p>`;
      if (line === params.code) return `<p style="font-size:24px;letter-spacing:4px"><strong>${safe}</strong></p>`;
      return `<p>${safe}</p>`;
    })
    .join('\n');
  return { to, subject: fill(wording.subject, params), text: lines.join('\n\n') + '\n', html };
}
