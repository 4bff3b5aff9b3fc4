/** Field rules shared by the forms and the server (SPEC §5). */
export const PASSWORD_MIN_LENGTH = 8;

/** At least 8 characters with an uppercase letter, a lowercase letter and a digit (SPEC §5.1). */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= PASSWORD_MIN_LENGTH && /[A-Z]/.test(password) && /[a-z]/.test(password) && /\d/.test(password)
  );
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_PATTERN.test(email);
}

/** International numbers with an optional leading +, 6 to 15 digits (E.164 length). */
export const PHONE_PATTERN = /^\+?\d{6,15}$/;
export function isValidPhone(phone: string): boolean {
  return PHONE_PATTERN.test(phone);
}

/** Accounts are what users type to log in: 3-64 characters, no spaces. */
export const ACCOUNT_PATTERN = /^[^\s]{3,64}$/;

export const NICKNAME_MAX_LENGTH = 40;

/**
 * The largest id, page or character offset a request may name: what PostgreSQL's `integer` columns
 * hold. A larger one is refused as a bad request instead of failing in the database.
 */
export const INT4_MAX = 2_147_483_647;
export const VERIFICATION_CODE_LENGTH = 6;
