// Downscales images for a model's limits with the Chromium the browser tools already drive: a
// canvas in a blank page decodes PNG, JPEG, GIF (its first frame) and WebP and encodes the
// smaller copy. No image library ships with Hermes (a native one breaks the single .vsix; see
// docs/browser.md), so where no Chromium can start the caller gets the error and says so.
// One headless browser serves a batch and is closed after it; it reaches no network (its page's
// requests are aborted, its own go to a closed port; the images go in as data: URLs).
import type { Browser } from "playwright-core";
import { ToolError } from "../registry";
import { chooseBrowser } from "./browser-executable";
import { browserSettings } from "./browser-settings";
import { loadPlaywright } from "./session-browser";

export interface ImageBytes {
  mimeType: string;
  data: string;
}

export interface ScaleJob {
  image: ImageBytes;
  /** The longest side of the copy, in pixels. */
  maxSide: number;
  /** The copy's size cap in bytes (decoded); a PNG over it is encoded as JPEG, smaller and smaller. */
  maxBytes: number;
}

/** Each job's smaller copy, or the error that kept it from being made (in the jobs' order). */
export async function scaleImages(jobs: readonly ScaleJob[]): Promise<(ImageBytes | Error)[]> {
  if (jobs.length === 0) return [];
  let browser: Browser;
  try {
    browser = await launch();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return jobs.map(() => new ToolError(`no Chromium to scale it with (${reason})`));
  }
  try {
    const context = await browser.newContext();
    await context.route("**/*", (route) => route.abort());
    const page = await context.newPage();
    const results: (ImageBytes | Error)[] = [];
    for (const job of jobs) {
      try {
        const input = JSON.stringify({ ...job.image, maxSide: job.maxSide, maxBytes: job.maxBytes });
        results.push(await page.evaluate<ImageBytes>(`(${SCALE_IN_PAGE})(${input})`));
      } catch (error) {
        results.push(new ToolError(`it could not be decoded (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`));
      }
    }
    return results;
  } finally {
    await browser.close();
  }
}

async function launch(): Promise<Browser> {
  const { chromium } = await loadPlaywright();
  const chosen = chooseBrowser(browserSettings().config.executable);
  // The page's requests are aborted by the route; Chromium's own (update and safe-browsing checks) go
  // to a proxy on a closed port, so this browser reaches nothing at all (it only needs data: URLs).
  const nowhere = { server: "http://127.0.0.1:1" };
  return chromium.launch({ headless: true, timeout: 30_000, proxy: nowhere, ...(chosen.executable ? { executablePath: chosen.executable } : {}) });
}

/**
 * Runs in the page (given as source: this code is compiled without the DOM's types): decode,
 * draw smaller, encode under the byte cap. Photos stay JPEG; screenshots and drawings stay PNG
 * (sharp text) unless that is over the cap.
 */
const SCALE_IN_PAGE = `async (job) => {
  const image = new Image();
  image.src = "data:" + job.mimeType + ";base64," + job.data;
  await image.decode();
  const scale = Math.min(1, job.maxSide / Math.max(image.naturalWidth, image.naturalHeight));
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
  canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
  const context = canvas.getContext("2d");
  context.imageSmoothingQuality = "high";
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const bytes = (url) => Math.floor(((url.length - url.indexOf(",") - 1) * 3) / 4);
  const split = (url) => ({ mimeType: url.slice(5, url.indexOf(";")), data: url.slice(url.indexOf(",") + 1) });
  if (job.mimeType !== "image/jpeg") {
    const png = canvas.toDataURL("image/png");
    if (bytes(png) <= job.maxBytes) return split(png);
  }
  for (const quality of [0.9, 0.8, 0.65, 0.5, 0.35]) {
    const jpeg = canvas.toDataURL("image/jpeg", quality);
    if (bytes(jpeg) <= job.maxBytes) return split(jpeg);
  }
  throw new Error("still over " + Math.round(job.maxBytes / 1024) + " KB at the lowest JPEG quality");
}`;
