// What Hermes keeps of one MCP server's OAuth sign-in: the client it registered (or the
// issuer a configured client is bound to), the tokens, the discovery results and the loopback
// port its redirect URI names. One file per server URL under $HERMES_HOME/mcp-auth/ (mode 600,
// the folder 700), keyed by the URL, not the config name, so renaming an entry never hands one
// server's token to another. Every change is a read-modify-write under a lock file, written
// atomically: two Hermes processes refreshing at once cannot lose or tear a token. The file is
// a credential store (security/sensitive-paths.ts): file tools refuse it and the sandbox hides it.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { hermesHome } from "../../config/paths";
import { writeFileAtomicSync } from "../../util/atomic-write";
import { withFileLock } from "../../util/file-lock";
import type { Logger } from "../../util/log";

/** The folder of every server's sign-in, under $HERMES_HOME. */
export const MCP_AUTH_FOLDER = "mcp-auth";

const TokensSchema = z
  .object({
    access_token: z.string(),
    token_type: z.string(),
    expires_in: z.number().optional(),
    refresh_token: z.string().optional(),
    scope: z.string().optional(),
    id_token: z.string().optional(),
    issuer: z.string().optional(),
  })
  .passthrough();

const RecordSchema = z.object({
  version: z.literal(1),
  server_url: z.string(),
  /** The config name it was last signed in under (shown by /mcp and doctor). */
  server_name: z.string(),
  client_information: z.object({ client_id: z.string() }).passthrough().optional(),
  tokens: TokensSchema.optional(),
  /** When the tokens were saved (ms): `expires_in` counts from here. */
  tokens_saved_at: z.number().optional(),
  /** Who signed in, when the ID token says. */
  account: z.string().optional(),
  discovery_state: z.record(z.string(), z.unknown()).optional(),
  /** The port of http://127.0.0.1:PORT/callback, the redirect URI the client was registered with. */
  redirect_port: z.number().int().optional(),
});

export type McpAuthRecord = z.infer<typeof RecordSchema>;
export type StoredTokens = z.infer<typeof TokensSchema>;

/** One server's stored sign-in; every method reads the file afresh (another process may have refreshed). */
export class McpAuthStore {
  readonly file: string;

  constructor(
    readonly serverUrl: string,
    readonly serverName: string,
    private readonly log: Logger,
    home: string = hermesHome(),
  ) {
    this.file = path.join(home, MCP_AUTH_FOLDER, `${storeKey(serverUrl)}.json`);
  }

  /** The stored record, or an empty one (a missing or unreadable file signs in again, and says so in the log). */
  read(): McpAuthRecord {
    const empty: McpAuthRecord = { version: 1, server_url: this.serverUrl, server_name: this.serverName };
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.log.warn("an MCP sign-in file could not be read; signing in again", { server: this.serverName, file: this.file, error });
      return empty;
    }
    let parsed: z.ZodSafeParseResult<McpAuthRecord>;
    try {
      parsed = RecordSchema.safeParse(JSON.parse(text));
    } catch (error) {
      this.log.warn("an MCP sign-in file is not JSON; signing in again", { server: this.serverName, file: this.file, error: (error as Error).message });
      return empty;
    }
    if (!parsed.success) {
      this.log.warn("an MCP sign-in file has an unknown shape; signing in again", { server: this.serverName, file: this.file });
      return empty;
    }
    // Only ever the record of this URL: a hash collision or a copied file is not reused.
    return parsed.data.server_url === this.serverUrl ? parsed.data : empty;
  }

  /** Changes the record under the lock; `change` returns the new record, or undefined to delete the file. */
  update(change: (record: McpAuthRecord) => McpAuthRecord | undefined): McpAuthRecord | undefined {
    const folder = path.dirname(this.file);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    return withFileLock(`${this.file}.lock`, () => {
      const next = change(this.read());
      if (next === undefined) {
        fs.rmSync(this.file, { force: true });
        return undefined;
      }
      writeFileAtomicSync(this.file, `${JSON.stringify({ ...next, server_name: this.serverName }, null, 2)}\n`, 0o600);
      return next;
    });
  }

  /** Forgets the sign-in (hermes mcp logout): true when there was one. */
  remove(): boolean {
    const existed = fs.existsSync(this.file);
    this.update(() => undefined);
    return existed;
  }
}

/** `<host>-<hash of the URL>`: readable in a listing, unique per URL. */
export function storeKey(serverUrl: string): string {
  const host = URL.canParse(serverUrl) ? new URL(serverUrl).host.replace(/[^A-Za-z0-9.-]/g, "_") : "server";
  return `${host}-${createHash("sha256").update(serverUrl).digest("hex").slice(0, 16)}`;
}

/** When stored tokens stop working (ms since the epoch), when their lifetime is known. */
export function tokensExpireAt(record: McpAuthRecord): number | undefined {
  const lifetime = record.tokens?.expires_in;
  return lifetime !== undefined && record.tokens_saved_at !== undefined ? record.tokens_saved_at + lifetime * 1000 : undefined;
}

/** Who an ID token names (email, then preferred_username, then sub), read without verifying: it is only shown. */
export function accountOf(idToken: string | undefined): string | undefined {
  const payload = idToken?.split(".")[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    for (const key of ["email", "preferred_username", "name", "sub"]) if (typeof claims[key] === "string" && claims[key]) return claims[key];
  } catch {
    // expected: not a JWT after all; nobody is named
  }
  return undefined;
}
