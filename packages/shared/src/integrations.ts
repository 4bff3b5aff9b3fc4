import { z } from 'zod';

/** Highlights and notes where readers keep them: Readwise (pushed by the server), Obsidian (a file). */

export const ReadwiseStatus = z.object({
  connected: z.boolean(),
  /** The last characters of the stored token ("…a1b2"), never the token. */
  tokenHint: z.string().nullable(),
  /** Highlights and notes are pushed as they are made (else only on demand). */
  autoPush: z.boolean(),
  lastPushAt: z.string().nullable(),
  /** Why the last push failed (an error key), null when it went through. */
  lastError: z.string().nullable(),
  /** Highlights and notes not on Readwise yet (new, or changed since). */
  pending: z.number(),
});
export type ReadwiseStatus = z.infer<typeof ReadwiseStatus>;

export const ReadwiseSettingsBody = z.object({
  /** A new access token (checked with Readwise before it is kept); left out keeps the stored one. */
  token: z.string().trim().min(10).max(200).optional(),
  autoPush: z.boolean().optional(),
});

export const ReadwisePushBody = z.object({
  /** Only this book's highlights (all books when left out). */
  bookCode: z.string().min(1).max(40).optional(),
});

export const NotesExportQuery = z.object({ bookCode: z.string().min(1).max(40) });

// ---------- Anki (AnkiConnect is called by the reader's browser; the server keeps what was sent) ----------

/** A saved word with everything an Anki note may take, the sentence's translation included. */
export const AnkiWord = z.object({
  id: z.number(),
  text: z.string(),
  meaning: z.string(),
  pronunciation: z.string(),
  sentence: z.string(),
  /** Where the word stands in the sentence (offsets), null when not known. */
  wordStart: z.number().nullable(),
  wordEnd: z.number().nullable(),
  /** The sentence's translation in the reader's language; '' when the reader has no translation of it. */
  sentenceTranslation: z.string(),
  bookTitle: z.string(),
  ankiSentAt: z.string().nullable(),
});
export type AnkiWord = z.infer<typeof AnkiWord>;

export const AnkiWordsQuery = z.object({
  bookCode: z.string().min(1).max(40).optional(),
  /** Only the words not sent to Anki yet (from any device). */
  unsent: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});

export const AnkiSentBody = z.object({ ids: z.array(z.number().int().min(1)).min(1).max(500) });
