// Draws media/hermes.png (128x128, the marketplace icon) without dependencies: a rounded
// indigo tile with a white H whose crossbar grows a wing. Run: node media/make-icon.mjs
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZE = 128;
const SAMPLES = 4; // per axis, for anti-aliasing

const inRoundRect = (x, y, x0, y0, x1, y1, r) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= x0 && x <= x1 && y >= y0 && y <= y1;
};
const inEllipse = (x, y, cx, cy, rx, ry, angle) => {
  const c = Math.cos(angle), s = Math.sin(angle);
  const dx = x - cx, dy = y - cy;
  const u = (dx * c + dy * s) / rx, v = (-dx * s + dy * c) / ry;
  return u * u + v * v <= 1;
};

const glyph = (x, y) =>
  inRoundRect(x, y, 30, 28, 44, 100, 4) || // left stem
  inRoundRect(x, y, 70, 28, 84, 100, 4) || // right stem
  inRoundRect(x, y, 30, 57, 84, 71, 4) || // crossbar
  // the wing: three feathers sweeping up and right from the right stem
  inEllipse(x, y, 94, 50, 18, 5.5, -0.55) ||
  inEllipse(x, y, 96, 60, 16, 5, -0.35) ||
  inEllipse(x, y, 95, 69, 12, 4.5, -0.15);

const pixels = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  const row = y * (SIZE * 4 + 1);
  pixels[row] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    let tile = 0, mark = 0;
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const px = x + (sx + 0.5) / SAMPLES, py = y + (sy + 0.5) / SAMPLES;
        if (inRoundRect(px, py, 2, 2, 126, 126, 26)) {
          tile++;
          if (glyph(px, py)) mark++;
        }
      }
    }
    const n = SAMPLES * SAMPLES;
    const t = y / SIZE; // vertical gradient, indigo to violet
    const bg = [Math.round(67 + 50 * t), Math.round(56 + 10 * t), Math.round(202 - 20 * t)];
    const m = mark / Math.max(tile, 1);
    const at = row + 1 + x * 4;
    pixels[at] = Math.round(bg[0] * (1 - m) + 255 * m);
    pixels[at + 1] = Math.round(bg[1] * (1 - m) + 255 * m);
    pixels[at + 2] = Math.round(bg[2] * (1 - m) + 255 * m);
    pixels[at + 3] = Math.round((255 * tile) / n);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buffer) => {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(pixels, { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
writeFileSync(new URL("./hermes.png", import.meta.url), png);
console.log(`media/hermes.png: ${png.length} bytes`);
