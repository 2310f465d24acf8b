// FileAccess through the editor (fs/read_text_file, fs/write_text_file) when the client
// advertised them: reads see unsaved buffers and the editor sees every write. Falls back
// to the local disk for whichever half the client does not serve.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { clientErrorText } from "./client-error";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { FileNotFoundError, type FileAccess, type WriteOutcome } from "../tools/context";
import { LocalFileAccess } from "../tools/local-files";
import { AgentError } from "../util/agent-error";
import { reviewOutcome } from "./review-outcome";

export class ClientFileAccess implements FileAccess {
  private readonly local = new LocalFileAccess();

  constructor(
    private readonly client: acp.AgentContext,
    private readonly sessionId: string,
    private readonly capabilities: acp.FileSystemCapabilities,
  ) {}

  get viaEditor(): boolean {
    return this.capabilities.readTextFile === true;
  }

  async readText(file: string): Promise<string> {
    if (!this.capabilities.readTextFile) return this.local.readText(file);
    try {
      const response = await this.client.request(acp.methods.client.fs.readTextFile, { sessionId: this.sessionId, path: file });
      return response.content;
    } catch (error) {
      // Clients report a missing file in their own words; the disk tells us which case it is.
      if (!existsSync(file)) throw new FileNotFoundError(file);
      throw new AgentError("internal", `The editor refused or failed to read ${file}: ${clientErrorText(error)}`, { path: file }, { cause: error });
    }
  }

  async writeText(file: string, content: string): Promise<WriteOutcome | void> {
    if (!this.capabilities.writeTextFile) return this.local.writeText(file, content);
    // Not every client creates missing folders; doing it here is harmless for those that do.
    await mkdir(path.dirname(file), { recursive: true });
    let response: acp.WriteTextFileResponse | void;
    try {
      response = await this.client.request(acp.methods.client.fs.writeTextFile, { sessionId: this.sessionId, path: file, content });
    } catch (error) {
      throw new AgentError("internal", `The editor refused or failed to write ${file}: ${clientErrorText(error)}`, { path: file }, { cause: error });
    }
    return reviewOutcome(response?._meta);
  }
}
