// PDF → text for web_fetch, through unpdf: Mozilla's pdf.js in a build that runs in Node without
// a worker, canvas or native modules (pdfjs-dist itself needs a worker file next to the bundle
// and polyfills). Loaded on the first PDF only: pdf.js is the largest part of the web tools.

export interface PdfText {
  title?: string;
  pages: number;
  text: string;
}

export async function pdfToText(bytes: Buffer): Promise<PdfText> {
  const { extractText, getDocumentProxy, getMeta } = await import("unpdf");
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const { totalPages, text } = await extractText(document, { mergePages: false });
    const meta = await getMeta(document).catch(() => undefined); // expected: PDF metadata is optional; a PDF without readable metadata simply has no title
    const info = meta?.info as Record<string, unknown> | undefined;
    const title = typeof info?.Title === "string" && info.Title.trim() ? info.Title.trim() : undefined;
    const body = text
      .map((page, index) => (text.length > 1 ? `## Page ${index + 1}\n\n${page.trim()}` : page.trim()))
      .join("\n\n");
    return { ...(title ? { title } : {}), pages: totalPages, text: body };
  } finally {
    await document.destroy();
  }
}
