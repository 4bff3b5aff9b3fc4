import { z } from 'zod';

/** Wraps a success value in the envelope of DESIGN §4. */
export const ok = <T>(data: T) => ({ code: 0 as const, data, msg: 'ok' });

/** The response schema of a successful call, for validation and the OpenAPI document. */
export const envelopeOf = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(0), data, msg: z.string() });

export const EmptyEnvelope = envelopeOf(z.null());
