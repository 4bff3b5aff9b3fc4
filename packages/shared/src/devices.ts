import { z } from 'zod';

/**
 * E-readers (issue 26): device passwords for OPDS catalogs and KOReader's progress sync. A device
 * password is made by the server, shown once, and works only for /opds and /kosync.
 */

/** How many live device passwords one account may have. */
export const MAX_DEVICE_PASSWORDS = 20;

export const CreateDevicePasswordBody = z.object({
  /** What the reader calls the device ("Kobo Clara", "KOReader on the Boox"). */
  name: z.string().trim().min(1).max(60),
});
export type CreateDevicePasswordBody = z.infer<typeof CreateDevicePasswordBody>;

export const DevicePassword = z.object({
  id: z.number(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** 'opds' or 'kosync', and the device's own name when it gave one. */
  lastUsedBy: z.string().nullable(),
});
export type DevicePassword = z.infer<typeof DevicePassword>;

/** The answer to a new device password: the password itself, this once. */
export const CreatedDevicePassword = z.object({
  id: z.number(),
  name: z.string(),
  /** The user name to type on the device (the account). */
  username: z.string(),
  password: z.string(),
});
export type CreatedDevicePassword = z.infer<typeof CreatedDevicePassword>;
