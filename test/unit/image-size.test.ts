// imagePixelSize against images from real encoders: Chromium's JPEG (screenshot) and WebP (canvas),
// the 1×1 PNG read_file's test uses, and a GIF header (the format's size is its first 10 bytes).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { imagePixelSize } from "../../acp-server/tools/image-size";

let browser: Browser;
let page: Page;

before(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true });
  page = await browser.newPage({ viewport: { width: 301, height: 157 } });
  await page.setContent("<body style='margin:0;background:linear-gradient(red,blue)'></body>");
});

after(async () => {
  await browser.close();
});

/** The bytes of a canvas of `width`×`height` encoded by Chromium as `mimeType`. */
async function canvasImage(width: number, height: number, mimeType: string, quality?: number, fill = "#3a7"): Promise<Buffer> {
  // A string, not a function: this project's types have no DOM (the code runs in the page).
  const url = await page.evaluate<string>(`(() => {
    const canvas = document.createElement("canvas");
    canvas.width = ${width};
    canvas.height = ${height};
    const context = canvas.getContext("2d");
    context.fillStyle = ${JSON.stringify(fill)};
    context.fillRect(0, 0, ${width}, ${height});
    return canvas.toDataURL(${JSON.stringify(mimeType)}, ${quality ?? "undefined"});
  })()`);
  assert.ok(url.startsWith(`data:${mimeType};base64,`), `Chromium encoded ${mimeType}`);
  return Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
}

test("PNG, JPEG (baseline and from a screenshot), WebP and GIF sizes come from their headers", async () => {
  assert.deepEqual(imagePixelSize(await page.screenshot({ type: "png" }), "image/png"), { width: 301, height: 157 });
  assert.deepEqual(imagePixelSize(await page.screenshot({ type: "jpeg", quality: 60 }), "image/jpeg"), { width: 301, height: 157 });
  assert.deepEqual(imagePixelSize(await canvasImage(1234, 56, "image/jpeg", 0.8), "image/jpeg"), { width: 1234, height: 56 });
  assert.deepEqual(imagePixelSize(await canvasImage(777, 333, "image/webp", 0.7), "image/webp"), { width: 777, height: 333 });
  // Transparency makes Chromium write the extended (VP8X) WebP header.
  const translucent = await canvasImage(640, 9, "image/webp", 0.7, "rgba(0,0,0,0.5)");
  assert.equal(translucent.toString("latin1", 12, 16), "VP8X");
  assert.deepEqual(imagePixelSize(translucent, "image/webp"), { width: 640, height: 9 });
  const gif = Buffer.from("GIF89a\x40\x01\xf0\x00\x80\x00\x00", "latin1");
  assert.deepEqual(imagePixelSize(gif, "image/gif"), { width: 320, height: 240 });
});

test("a header that is not the named type gives no size", async () => {
  const png = await page.screenshot({ type: "png" });
  assert.equal(imagePixelSize(png, "image/jpeg"), undefined);
  assert.equal(imagePixelSize(Buffer.from("not an image"), "image/png"), undefined);
  assert.equal(imagePixelSize(png.subarray(0, 20), "image/png"), undefined, "a truncated header");
  assert.equal(imagePixelSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]), "image/jpeg"), undefined, "a JPEG cut before its frame");
});
