/** Masks an address for display: 'a***@example.com', '138****5678'. */
export function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}***@${domain}`;
}

export function maskPhone(phone: string): string {
  if (phone.length <= 7) return phone.slice(0, 2) + '***';
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`;
}
