/** Reads image dimensions from PNG/JPEG/GIF/WebP headers without decoding the image. */
export interface ImageInfo {
  mediaType: string;
  width?: number;
  height?: number;
}

export function imageInfo(data: Buffer): ImageInfo | undefined {
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47) {
    return { mediaType: 'image/png', width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 10 && data.toString('latin1', 0, 4) === 'GIF8') {
    return { mediaType: 'image/gif', width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  }
  if (data.length >= 30 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    const info: ImageInfo = { mediaType: 'image/webp' };
    if (data.toString('latin1', 12, 16) === 'VP8X') {
      info.width = 1 + data.readUIntLE(24, 3);
      info.height = 1 + data.readUIntLE(27, 3);
    }
    return info;
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    const info: ImageInfo = { mediaType: 'image/jpeg' };
    let i = 2;
    while (i + 9 < data.length) {
      if (data[i] !== 0xff) {
        i++;
        continue;
      }
      const marker = data[i + 1]!;
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const length = data.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        info.height = data.readUInt16BE(i + 5);
        info.width = data.readUInt16BE(i + 7);
        break;
      }
      i += 2 + length;
    }
    return info;
  }
  return undefined;
}
