import { hash, verify, type Algorithm } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum: 19 MiB memory, 2 passes, 1 lane.
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
