// web_fetch's network policy for every request a page makes (navigations, redirects,
// subresources, fetch/XHR): private and link-local addresses are refused unless web.allow_private
// lists them, with one difference: loopback is allowed, since local dev servers are what the
// browser is for. Checked before the request leaves Chromium (route interception).
import { parseRange, type AddressRange } from "../../util/ip-address";
import { resolveTarget } from "../web/guarded-fetch";

/** Allowed by default: local dev servers are what the browser is for. */
export const BROWSER_LOOPBACK: AddressRange[] = [parseRange("127.0.0.0/8"), parseRange("::1/128")];
/** Schemes that never reach the network. */
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

export type RequestVerdict = { allowed: true } | { allowed: false; reason: string };

export async function checkBrowserRequest(urlText: string, allowPrivate: readonly AddressRange[], signal: AbortSignal): Promise<RequestVerdict> {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    // expected: an unparsable URL is refused, with its reason
    return { allowed: false, reason: `not a valid URL: ${urlText.slice(0, 200)}` };
  }
  if (LOCAL_SCHEMES.has(url.protocol)) return { allowed: true };
  if (url.protocol !== "http:" && url.protocol !== "https:" && url.protocol !== "ws:" && url.protocol !== "wss:") {
    return { allowed: false, reason: `the ${url.protocol.replace(/:$/, "")} scheme is not allowed in the browser` };
  }
  try {
    // ws(s) are checked like http(s): resolveTarget reads only the host.
    await resolveTarget(url, [...BROWSER_LOOPBACK, ...allowPrivate], signal);
    return { allowed: true };
  } catch (error) {
    return { allowed: false, reason: error instanceof Error ? error.message.replace(/web_fetch/g, "the browser") : String(error) };
  }
}
