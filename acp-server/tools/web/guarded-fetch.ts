// One GET for web_fetch, guarded against server-side request forgery: every hop's host is
// resolved once, every address it resolves to must be public (or in web.allow_private), and
// the request connects to that checked address (never a second lookup a rebinding DNS server
// could answer differently); the socket's peer is checked again once connected. Redirects are
// followed by hand, each one checked the same way and approved by the caller (per host). The
// body is capped (after decompression) and the whole exchange has one deadline.
import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type Socket } from "node:net";
import tls from "node:tls";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { classifyAddress, type AddressRange } from "../../security/private-network";
import { parseAddress } from "../../util/ip-address";
import { VERSION } from "../../version";
import { ToolError } from "../registry";
import { tunnel } from "./proxy";

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  allowPrivate: readonly AddressRange[];
  /** The HTTP proxy for a URL (web.proxy, HTTPS_PROXY / HTTP_PROXY / NO_PROXY: web/proxy.ts); none: direct. */
  proxyFor?: (url: URL) => URL | undefined;
}

export interface FetchedBody {
  /** The URL the body came from (after redirects). */
  url: string;
  status: number;
  statusText: string;
  contentType?: string;
  body: Buffer;
  /** The body was longer than the cap and was cut there. */
  truncated: boolean;
  /** URLs that redirected, in order. */
  redirects: string[];
}

export interface FetchOptions {
  signal: AbortSignal;
  /** Called for the first URL and every redirect target before anything is sent there; throws to stop. */
  approve: (url: URL) => Promise<void>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = `Mozilla/5.0 (compatible; Hermes/${VERSION}; web_fetch)`;

export async function guardedFetch(input: string, limits: FetchLimits, options: FetchOptions): Promise<FetchedBody> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const signal = AbortSignal.any([options.signal, deadline]);
  try {
    let url = checkUrl(input);
    const redirects: string[] = [];
    for (;;) {
      // An address literal is judged before the user is asked (a refusal needs no question); a
      // name is resolved only after approval, since a lookup already tells a DNS server the name.
      const literal = literalTarget(url, limits.allowPrivate);
      await options.approve(url);
      // Checked first, proxy or not: a proxy is no way around the guard.
      const target = literal ?? (await resolveTarget(url, limits.allowPrivate, signal));
      const response = await send(url, target, signal, limits.proxyFor?.(url));
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location) {
        response.destroy();
        if (redirects.length >= limits.maxRedirects) throw new ToolError(`Too many redirects: more than ${limits.maxRedirects} (web.max_redirects); the last one pointed to ${location}`);
        redirects.push(url.href);
        const next = checkUrl(location, url);
        if (url.protocol === "https:" && next.protocol === "http:") {
          throw new ToolError(
            `Refused: ${url.href} redirected to ${next.href}, a downgrade from https to unencrypted http; web_fetch does not follow it (the page could be read or changed on the way).`,
          );
        }
        url = next;
        continue;
      }
      const { body, truncated } = await readBody(response, limits.maxBytes, signal);
      return {
        url: url.href,
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? "",
        ...(response.headers["content-type"] ? { contentType: response.headers["content-type"] } : {}),
        body,
        truncated,
        redirects,
      };
    }
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason ?? error;
    if (deadline.aborted) throw new ToolError(`Fetching ${input} took longer than ${limits.timeoutMs / 1000} s (web.timeout) and was stopped`);
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Could not fetch ${input}: ${networkErrorText(error)}`);
  }
}

/** http(s) URLs only, without credentials; relative ones (redirects) resolve against `base`. */
export function checkUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new ToolError(`Not a valid URL: ${text}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ToolError(`Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, "")}: ${text}`);
  if (url.username || url.password) throw new ToolError(`URLs with a user name or password are not fetched: ${url.host}`);
  url.hash = "";
  return url;
}

export interface Target {
  address: string;
  family: 4 | 6;
  /** The URL's host is an IP address (no SNI, the certificate must name the address). */
  literal: boolean;
}

/** LDH host names (with underscores, which real DNS has); a numeric last label would be read as an address. */
const HOST_NAME = /^(?=.{1,253}\.?$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.?$/i;

/** The name did not resolve: a network failure, not a refusal by the policy. */
export class NameNotResolvedError extends ToolError {
  constructor(message: string) {
    super(message);
    this.name = "NameNotResolvedError";
  }
}

function refusal(host: string, address: string, reason: string): ToolError {
  return new ToolError(
    `Refused: ${host} ${address === host ? "is" : `resolves to ${address}, which is`} not on the public internet (${reason}). ` +
      `web_fetch reaches only public addresses; to allow this one, add it (or its range) to web.allow_private in config.yaml.`,
  );
}

/** The target of a URL whose host is an address (checked, no DNS); undefined for a host name. */
export function literalTarget(url: URL, allowPrivate: readonly AddressRange[]): Target | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!isIP(host) && !/^[\d.]+$/.test(host) && !/^0x/i.test(host)) return undefined;
  const bytes = parseAddress(host);
  if (!bytes) throw new ToolError(`Refused: "${host}" is written in an address notation Hermes does not classify`);
  const verdict = classifyAddress(host, allowPrivate);
  if (!verdict.public) throw refusal(host, host, verdict.reason);
  return { address: host, family: bytes.length === 4 ? 4 : 6, literal: true };
}

/** Where to connect for `url`: its address, or the one address its name resolves to, all of them checked. */
export async function resolveTarget(url: URL, allowPrivate: readonly AddressRange[], signal: AbortSignal): Promise<Target> {
  const literal = literalTarget(url, allowPrivate);
  if (literal) return literal;
  const host = url.hostname;
  const refuse = (address: string, reason: string) => refusal(host, address, reason);
  if (!HOST_NAME.test(host) || /\.\d+\.?$|^\d+\.?$/.test(host)) throw new ToolError(`Refused: "${host}" is not a host name Hermes can check`);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await abortable(lookup(host, { all: true, verbatim: true }), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new NameNotResolvedError(`Could not resolve ${host}: ${networkErrorText(error)}`);
  }
  if (addresses.length === 0) throw new NameNotResolvedError(`Could not resolve ${host}: no addresses`);
  // Every address must pass: a name that also points inside the network is refused as a whole.
  for (const { address } of addresses) {
    const verdict = classifyAddress(address, allowPrivate);
    if (!verdict.public) throw refuse(address, verdict.reason);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4, literal: false };
}

async function send(url: URL, target: Target, signal: AbortSignal, proxy: URL | undefined): Promise<http.IncomingMessage> {
  const secure = url.protocol === "https:";
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  const tunnelled = proxy ? await tunnelFor(url, target, port, proxy, signal) : undefined;
  const options: https.RequestOptions = {
    host: target.address,
    family: target.family,
    port,
    path: `${url.pathname}${url.search}`,
    method: "GET",
    agent: false,
    signal,
    headers: {
      host: url.host,
      "user-agent": USER_AGENT,
      accept: "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,application/pdf;q=0.8,*/*;q=0.5",
      "accept-encoding": "gzip, deflate, br",
      "accept-language": "en;q=0.9, *;q=0.5",
    },
    // SNI and the certificate check use the host name; an address literal is checked as itself.
    ...(secure ? { servername: target.literal ? "" : url.hostname } : {}),
  };
  return new Promise((resolve, reject) => {
    if (tunnelled) {
      // Over the proxy's tunnel (TLS already set up inside it for https): the socket's peer is the proxy.
      const request = http.request({ ...options, agent: undefined, createConnection: () => tunnelled }, resolve);
      request.once("error", reject);
      request.end();
      return;
    }
    const request = (secure ? https : http).request(options, resolve);
    request.once("error", reject);
    request.once("socket", (socket) => {
      socket.once("connect", () => {
        // The peer actually connected to: the checked address, nothing else.
        if (socket.remoteAddress !== undefined && !sameAddress(socket.remoteAddress, target.address)) {
          request.destroy(new ToolError(`Refused: connected to ${socket.remoteAddress}, not the checked address ${target.address}`));
        }
      });
    });
    request.end();
  });
}

/**
 * The tunnel for one hop: plain http to the checked address (pinned: the proxy cannot resolve the
 * name elsewhere), https to the name with TLS inside the tunnel, the certificate checked for the
 * name (an address literal: for the address).
 */
async function tunnelFor(url: URL, target: Target, port: number, proxy: URL, signal: AbortSignal): Promise<Socket> {
  const secure = url.protocol === "https:";
  const host = secure && !target.literal ? url.hostname : target.address;
  const authority = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const socket = await tunnel(proxy, authority, signal);
  if (!secure) return socket;
  return new Promise((resolve, reject) => {
    const secured = tls.connect({ socket, host: target.literal ? target.address : url.hostname, ...(target.literal ? {} : { servername: url.hostname }) });
    const onAbort = () => secured.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    secured.once("secureConnect", () => {
      signal.removeEventListener("abort", onAbort);
      resolve(secured);
    });
    secured.once("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      reject(error);
    });
  });
}

function sameAddress(a: string, b: string): boolean {
  const left = parseAddress(a.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1"));
  const right = parseAddress(b.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1"));
  return left !== undefined && right !== undefined && left.length === right.length && left.every((byte, i) => byte === right[i]);
}

/** The body, decompressed, up to `maxBytes`; past that it stops reading and says so. */
function readBody(response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decoded(response);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (truncated: boolean) => {
      cleanup();
      resolve({ body: Buffer.concat(chunks, size), truncated });
    };
    const fail = (error: unknown) => {
      cleanup();
      reject(signal.aborted ? (signal.reason ?? error) : error);
    };
    const onAbort = () => fail(signal.reason);
    const cleanup = () => {
      signal.removeEventListener("abort", onAbort);
      stream.removeAllListeners("data");
      if (stream !== response) stream.destroy();
      response.destroy();
    };
    stream.on("data", (chunk: Buffer) => {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        // Exactly at the cap with nothing after it is not a cut; anything more is.
        if (chunk.length > room) finish(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.once("end", () => finish(false));
    stream.once("error", (error) => fail(new ToolError(`The response body could not be read: ${networkErrorText(error)}`)));
    if (stream !== response) response.once("error", fail);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decompressor =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  return decompressor ? response.pipe(decompressor) : response;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function networkErrorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
