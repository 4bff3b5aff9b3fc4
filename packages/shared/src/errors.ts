/**
 * The error catalogue (SPEC §8.3, extended). Every failed call answers the envelope
 * `{code, data: {key, ...details}, msg}` with the HTTP status below; the web app translates `key`.
 * `msg` is the English wording, for API clients and logs.
 */
export const ERRORS = {
  badRequest: { status: 400, message: 'Invalid request parameters' },
  unauthorized: { status: 401, message: 'Please log in' },
  insufficientPermissions: { status: 403, message: 'Insufficient permissions' },
  notFound: { status: 404, message: '404 Not Found' },
  tooManyRequests: { status: 429, message: 'Too many requests, please try again later' },
  tooManyStreams: {
    status: 429,
    message: 'Too many pages are open at once; close some tabs or devices and try again',
  },
  internalError: { status: 500, message: 'Something went wrong on our side' },
  serviceUnavailable: { status: 503, message: 'The service is briefly unavailable, please try again in a moment' },

  // Accounts
  noSuchAccount: { status: 400, message: 'Account does not exist' },
  invalidAccountOrPassword: { status: 400, message: 'Incorrect username or password' },
  invalidInviteCode: { status: 400, message: 'Invalid invitation code' },
  accountExists: { status: 409, message: 'Account already exists' },
  emailInUse: { status: 409, message: 'This email is already used by another account' },
  phoneInUse: { status: 409, message: 'This phone number is already used by another account' },
  invalidEmail: { status: 400, message: 'Please enter a valid email address' },
  invalidPhone: { status: 400, message: 'Please enter a valid phone number' },
  weakPassword: {
    status: 400,
    message: 'Password must be at least 8 characters and include uppercase, lowercase letters and numbers',
  },
  wrongPassword: { status: 400, message: 'The current password is incorrect' },
  invalidVerificationCode: { status: 400, message: 'The verification code is wrong or has expired' },
  failedToSendVerificationCode: { status: 502, message: 'Failed to send verification code, please try again later' },
  verificationCodeCooldown: { status: 429, message: 'Please wait before requesting another code' },
  linkExpired: { status: 400, message: 'The link has expired' },
  invalidLink: { status: 400, message: 'The link is invalid' },
  accountNotActivated: {
    status: 403,
    message: 'Your account is not activated yet; please open the link in your email',
  },
  accountDisabled: { status: 403, message: 'This account has been disabled' },
  noSuchLanguage: { status: 400, message: 'Language not available' },
  usernameTaken: { status: 409, message: 'This username is already taken' },
  nameHasInvisibleCharacters: {
    status: 400,
    message: 'Names cannot contain invisible, control or text-direction characters',
  },
  nameMixesScripts: {
    status: 400,
    message: 'Names cannot mix alphabets that look alike (such as Latin and Cyrillic letters)',
  },
  nameReserved: { status: 400, message: 'This name is reserved' },

  // Books and points (used by later modules)
  bookNotFound: { status: 404, message: 'Book not found' },
  uploadLimitReached: { status: 429, message: 'Upload limit reached' },
  fileTooLarge: { status: 413, message: 'The file is too large' },
  unsupportedFileType: { status: 415, message: 'This file type is not supported' },
  fileMissing: { status: 400, message: 'Please upload a file first' },
  fileCorrupted: { status: 422, message: 'The file is damaged or incomplete' },
  fileEncrypted: { status: 422, message: 'The file is protected by a password' },
  emptyFile: { status: 422, message: 'The file is empty' },
  fileTooComplex: { status: 422, message: 'The file is too large or complex to open safely' },
  formatTooOld: {
    status: 422,
    message: 'This document was saved in a format too old to read; open it in a word processor and save it as DOCX',
  },
  textNotExtractable: {
    status: 422,
    message: 'The text of this file cannot be extracted: its fonts do not say which letters they draw',
  },
  fileDrmProtected: { status: 422, message: 'This book is protected by DRM and cannot be opened here' },
  noTextFound: { status: 422, message: 'No text was found in the file' },
  ocrUnavailable: { status: 422, message: 'Text recognition is not available for this language' },
  translationUnavailable: { status: 503, message: 'No translation engine is available' },
  stageNotReady: { status: 409, message: 'The previous step has not finished yet' },
  invalidImage: { status: 415, message: 'Only JPG and PNG images are accepted' },
  annotationEmpty: { status: 400, message: 'Annotation content cannot be empty' },
  notAnImage: { status: 415, message: 'Upload file must be an image!' },
  imageTooLarge: { status: 413, message: 'Image size cannot exceed 10MB!' },
  shareExpired: { status: 410, message: 'This share link has expired' },
  shareRevoked: { status: 410, message: 'This share link is no longer valid' },
  insufficientPoints: { status: 402, message: 'Not enough points' },
  pointsConfirmationRequired: { status: 409, message: 'Please confirm the points charge' },
  requestInProgress: { status: 409, message: 'This request is still being answered' },
  requestIdReused: { status: 409, message: 'This request id was already used for another request' },
  bookNotTranslated: {
    status: 409,
    message: 'Some pages of this book are not translated for you yet; translate the whole book first',
  },
  translationNotNeeded: { status: 400, message: 'The book is already in this language' },
  quoteChanged: { status: 409, message: 'The price has changed since it was shown; please look at it again' },
  aiNotConfigured: { status: 503, message: 'AI features are not configured on this server' },
  aiUnavailable: { status: 502, message: 'The AI service is not responding, please try again later' },
  lookupUnavailable: { status: 503, message: 'No dictionary can look up this word right now' },
  wordNotFound: { status: 404, message: 'This word is not in the dictionary' },
  fileRightsProtected: {
    status: 422,
    message:
      'This document is protected by Microsoft rights management (IRM): only an app signed in to its organisation can open it. Ask the sender for an unprotected copy',
  },
  tooManyDevicePasswords: {
    status: 409,
    message: 'This account has as many device passwords as it may have; revoke one you no longer use',
  },
  alreadyDeleted: { status: 410, message: 'This was deleted (perhaps on another device)' },
  readwiseNotConnected: { status: 409, message: 'Connect Readwise with your access token first' },
  readwiseTokenRejected: { status: 400, message: 'Readwise did not accept this access token' },
  readwiseUnavailable: { status: 502, message: 'Readwise is not responding, please try again later' },
  noOriginalPages: { status: 404, message: 'This book has no original pages to show (only PDF books have them)' },
  rangeNotSatisfiable: { status: 416, message: 'The requested bytes lie beyond the end of the file' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorKey = keyof typeof ERRORS;
export const ERROR_KEYS = Object.keys(ERRORS) as ErrorKey[];

/** Login keeps its own envelope codes (SPEC §8.2). */
export const LOGIN_CODES = { wrongPassword: 1, noSuchUser: 2 } as const;

/** The shape of `data` in an error envelope. */
export interface ErrorData {
  key: ErrorKey;
  /** Seconds until the caller may try again (rate limits, code cooldowns). */
  retryAfter?: number;
  /** Field-level problems for `badRequest`. */
  issues?: { path: string; message: string }[];
  [detail: string]: unknown;
}
