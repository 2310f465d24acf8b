// The MCP conformance suite's client command: `node --import tsx test/conformance/adapter.ts <server-url>`.
// Starts the built Hermes (dist/, `hermes acp` over real stdio) with the scenario's server as a
// remote MCP server and a scripted model (our SSE model server) that calls every tool the
// server offers once, drives one prompt over ACP as an editor with form and URL elicitation
// would, and exits (non-zero when the prompt failed).
//
// Sign-in seam (auth/* scenarios): the suite's authorization server approves at once, so a
// headless client just follows the authorization URL with an HTTP GET. This adapter sets
// HERMES_MCP_SIGN_IN=fetch for Hermes; the MCP OAuth work's `presentSignIn(serverName, url,
// signal)` is expected to honour it (GET the URL instead of showing it). The adapter also
// follows any URL-mode elicitation it is shown with a GET, for the same reason.
import { makeTempDir, scriptedConfig, startHermes } from "../support/acp-harness";
import type { RecordedRequest } from "../support/scripted-http";
import { startScriptedModel, type ScriptedReply } from "../support/scripted-model";

const MCP_TOOL = /^mcp_conformance_/;

/** First request: one call per MCP tool (arguments filled from the schema); then a closing text. */
function callEveryTool(request: RecordedRequest): ScriptedReply {
  const messages = request.body.messages as { role: string }[];
  if (messages.some((message) => message.role === "tool")) return { text: "done" };
  const tools = ((request.body.tools ?? []) as { function: { name: string; parameters?: { properties?: Record<string, { type?: string }>; required?: string[] } } }[])
    .map((tool) => tool.function)
    .filter((tool) => MCP_TOOL.test(tool.name));
  if (tools.length === 0) return { text: "no tools" };
  return { toolCalls: tools.map((tool, index) => ({ id: `call_${index}`, name: tool.name, arguments: sampleArguments(tool.parameters) })) };
}

function sampleArguments(schema: { properties?: Record<string, { type?: string }>; required?: string[] } | undefined): Record<string, unknown> {
  const sample: Record<string, unknown> = {};
  for (const name of schema?.required ?? []) {
    const type = schema?.properties?.[name]?.type;
    sample[name] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : type === "array" ? [] : type === "object" ? {} : "test";
  }
  return sample;
}

/** The suite's client metadata document URL: what a client that publishes one would be configured with. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * config.yaml's `oauth` for the scenario, from the credentials the suite hands out in
 * MCP_CONFORMANCE_CONTEXT (a pre-registered client, a machine's secret or private key), as a
 * user would write them; otherwise the published client metadata document.
 */
function oauthSettings(): Record<string, unknown> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
    name?: string;
    client_id?: string;
    client_secret?: string;
    private_key_pem?: string;
    signing_algorithm?: string;
    idp_client_id?: string;
    idp_id_token?: string;
    idp_token_endpoint?: string;
  };
  if (context.idp_id_token && context.idp_token_endpoint) {
    return {
      grant: "enterprise",
      client_id: context.client_id,
      client_secret: context.client_secret,
      idp_token_endpoint: context.idp_token_endpoint,
      idp_client_id: context.idp_client_id,
      idp_id_token: context.idp_id_token,
    };
  }
  if (context.client_id && context.name?.startsWith("auth/client-credentials")) {
    return {
      grant: "client_credentials",
      client_id: context.client_id,
      ...(context.client_secret ? { client_secret: context.client_secret } : {}),
      ...(context.private_key_pem ? { private_key_pem: context.private_key_pem, signing_algorithm: context.signing_algorithm ?? "ES256" } : {}),
    };
  }
  if (context.client_id) return { client_id: context.client_id, ...(context.client_secret ? { client_secret: context.client_secret } : {}) };
  return { client_metadata_url: CLIENT_METADATA_URL };
}

async function main(serverUrl: string | undefined): Promise<number> {
  if (!serverUrl) {
    process.stderr.write("usage: adapter.ts <server-url>\n");
    return 2;
  }
  const model = await startScriptedModel({ fallback: { handler: callEveryTool } });
  // Every tool of the scenario's server is sent (none waits for tool_search): the scripted model calls what it sees.
  const config = scriptedConfig(model.url, { mcp_servers: { conformance: { url: serverUrl, oauth: oauthSettings() } }, mcp: { connect_wait: 30 }, tools: { eager_budget_tokens: 100_000 } });
  const hermes = await startHermes({
    config,
    env: { HERMES_MCP_SIGN_IN: "fetch" },
    // Accept with no content: the server's defaults apply (what the elicitation scenarios check).
    elicitation: async (request) => {
      const url = (request as { url?: string }).url;
      if (url) await fetch(url, { redirect: "follow" }).catch((error: unknown) => process.stderr.write(`following ${url} failed: ${String(error)}\n`));
      return { action: "accept", content: {} };
    },
    clientCapabilities: { elicitation: { form: {}, url: {} } },
  });
  try {
    await hermes.initialize();
    const { sessionId } = await hermes.newSession(await makeTempDir("hermes-conformance-"));
    const { stopReason } = await hermes.prompt(sessionId, "Call every tool of the conformance server once.");
    process.stderr.write(`hermes: ${stopReason}\n`);
    return stopReason === "end_turn" ? 0 : 1;
  } catch (error) {
    process.stderr.write(`hermes adapter failed: ${String(error)}\n${hermes.stderr().slice(-2000)}\n`);
    return 1;
  } finally {
    await hermes.close();
    await model.close();
  }
}

void main(process.argv[2]).then((code) => process.exit(code));
