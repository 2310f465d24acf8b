// An image's pixel size, read from its header (PNG, JPEG, GIF, WebP) without decoding it: enough to
// refuse, before a provider does with an HTTP 400 that ends the turn, an image a model cannot take.

export interface PixelSize {
  width: number;
  height: number;
}

/** The width and height in the header of `bytes`, or undefined when the header is not one of `mimeType`. */
export function imagePixelSize(bytes: Buffer, mimeType: string): PixelSize | undefined {
  switch (mimeType) {
    case "image/png":
      return pngSize(bytes);
    case "image/gif":
      return gifSize(bytes);
    case "image/webp":
      return webpSize(bytes);
    case "image/jpeg":
      return jpegSize(bytes);
    default:
      return undefined;
  }
}

function pngSize(b: Buffer): PixelSize | undefined {
  const signature = "89504e470d0a1a0a";
  if (b.length < 24 || b.subarray(0, 8).toString("hex") !== signature || b.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function gifSize(b: Buffer): PixelSize | undefined {
  const magic = b.toString("latin1", 0, 6);
  if (b.length < 10 || (magic !== "GIF87a" && magic !== "GIF89a")) return undefined;
  return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
}

function webpSize(b: Buffer): PixelSize | undefined {
  if (b.length < 30 || b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WEBP") return undefined;
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8 " && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21); // 14 bits width-1, then 14 bits height-1
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** Walks the JPEG markers to the first start-of-frame, which holds the size. */
function jpegSize(b: Buffer): PixelSize | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte before a marker
      continue;
    }
    // SOF0..SOF15, less DHT (c4), JPG (c8) and DAC (cc), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) };
    }
    const standalone = marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);
    at += standalone ? 2 : 2 + b.readUInt16BE(at + 2);
  }
  return undefined;
}
