/**
 * The standard security handler of PDF, revisions 2-4 (RC4 and AES-128), with the empty user
 * password: how "protected" PDFs that open without a password are written. Used by the metadata
 * reader to read the strings of the Info dictionary.
 */
import { createDecipheriv, createHash } from 'node:crypto';
import { asDict, asName, asString, type PdfDict } from './metadata-pdf-syntax.ts';

/** RC4, which OpenSSL 3 no longer offers by default. */
function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

const PASSWORD_PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]) => createHash('md5').update(Buffer.concat(parts)).digest();

/** Decrypts strings and streams of the standard security handler, revisions 2-4, empty user password. */
export interface Decryptor {
  decrypt(data: Buffer, num: number, gen: number): Buffer;
}

export function standardDecryptor(encrypt: PdfDict, fileId: Buffer | undefined): Decryptor | undefined {
  if (asName(encrypt.get('Filter')) !== 'Standard') return undefined;
  const v = Number(encrypt.get('V') ?? 0);
  const r = Number(encrypt.get('R') ?? 0);
  const o = asString(encrypt.get('O'));
  const u = asString(encrypt.get('U'));
  const p = Number(encrypt.get('P'));
  if (!o || !u || !Number.isFinite(p) || r < 2 || r > 4) return undefined;
  let aes = false;
  if (v === 4) {
    const stdCf = asDict(asDict(encrypt.get('CF'))?.get(asName(encrypt.get('StrF')) ?? 'StdCF'));
    const method = asName(stdCf?.get('CFM'));
    if (method === 'AESV2') aes = true;
    else if (method !== 'V2') return undefined;
  } else if (v !== 1 && v !== 2) return undefined;
  const encryptsMetadata = encrypt.get('EncryptMetadata') !== false;
  // Length is in bits; a few writers give bytes.
  const declared = Number(encrypt.get('Length') ?? 40);
  const length = r === 2 ? 5 : Math.min(16, Math.max(5, declared <= 16 ? declared : declared / 8));
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p | 0);
  const id = fileId ?? Buffer.alloc(0);
  // Algorithm 2 of ISO 32000 with the empty password.
  let key = md5(
    PASSWORD_PAD,
    o.subarray(0, 32),
    pBytes,
    id,
    r >= 4 && !encryptsMetadata ? Buffer.from([255, 255, 255, 255]) : Buffer.alloc(0),
  );
  if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, length));
  key = key.subarray(0, length);
  // Algorithms 4 and 5: the empty password is the user password only if U comes out right.
  let check: Buffer;
  if (r === 2) check = rc4(key, PASSWORD_PAD);
  else {
    check = rc4(key, md5(PASSWORD_PAD, id));
    for (let i = 1; i <= 19; i++) check = rc4(Buffer.from(key.map((b) => b ^ i)), check);
  }
  const compared = r === 2 ? 32 : 16;
  if (!check.subarray(0, compared).equals(u.subarray(0, compared))) return undefined;
  return {
    decrypt(data, num, gen) {
      const salt = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
      const objectKey = md5(key, salt, aes ? Buffer.from('sAlT') : Buffer.alloc(0)).subarray(
        0,
        Math.min(16, length + 5),
      );
      if (!aes) return rc4(objectKey, data);
      if (data.length < 32 || data.length % 16) return Buffer.alloc(0);
      const decipher = createDecipheriv('aes-128-cbc', objectKey, data.subarray(0, 16));
      try {
        return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
      } catch {
        return Buffer.alloc(0);
      }
    },
  };
}
