// Bytes → text in the charset the response declares: a byte-order mark first, then the
// Content-Type charset, then (HTML) a <meta> charset or (XML) the declaration's encoding, else
// UTF-8. Decoding uses TextDecoder (WHATWG labels; Node's ICU covers the legacy encodings),
// so no iconv table is bundled. An unknown label falls back to UTF-8 and says so.

export interface DecodedText {
  text: string;
  /** The encoding actually used (WHATWG name). */
  encoding: string;
  /** Set when the declared charset could not be used. */
  note?: string;
}

export function decodeBody(body: Buffer, contentType: string | undefined, kind: "html" | "xml" | "other"): DecodedText {
  const bom = bomEncoding(body);
  if (bom) return { text: new TextDecoder(bom).decode(body), encoding: bom };
  const declared = charsetParameter(contentType) ?? (kind === "html" ? metaCharset(body) : kind === "xml" ? xmlEncoding(body) : undefined);
  if (declared) {
    try {
      const decoder = new TextDecoder(declared);
      return { text: decoder.decode(body), encoding: decoder.encoding };
    } catch {
      // expected: a charset TextDecoder does not know: read as UTF-8, with a note
      return { text: new TextDecoder("utf-8").decode(body), encoding: "utf-8", note: `the page declares charset "${declared.slice(0, 40)}", which is not known; read as UTF-8` };
    }
  }
  return { text: new TextDecoder("utf-8").decode(body), encoding: "utf-8" };
}

function bomEncoding(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  return undefined;
}

/** `text/html; charset="Shift_JIS"` → Shift_JIS. */
export function charsetParameter(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? "");
  return match?.[2];
}

/** <meta charset=…> or <meta http-equiv="Content-Type" content="…; charset=…"> in the first 1024 bytes (the HTML prescan's window). */
function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString("latin1");
  const direct = /<meta[^>]*?\bcharset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(head);
  return direct?.[1];
}

function xmlEncoding(body: Buffer): string | undefined {
  return /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(body.subarray(0, 200).toString("latin1"))?.[1];
}
