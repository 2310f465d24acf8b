// dependency-cruiser rules: the one-way layer map of Hermes, checked by `npm run lint`
// (`npm run lint:layers` runs this check alone).
//
// THE MAP. Imports point down, never up; nothing imports in a circle.
//
//   webview-ui/        the panel (Preact): imports only common/ and npm packages
//   extension/         the VS Code host: imports common/ and a short allow-list of server
//                      library modules it reuses (EXTENSION_REUSES below), nothing else of the server
//   ── the ACP stream ──
//   acp-server/        the server, top to bottom (a layer imports its own layer and any layer
//                      below it):
//     main.ts          the entry point
//     cli/             front ends (hermes acp, hermes chat, setup, doctor…)
//     acp/             the ACP protocol edge
//     app/             the application: session lifecycle, the prompt turn, command dispatch, turn steps
//     features         learning/, delegate/ and every <folder>/commands/ (slash commands kept next to
//                      the feature they drive, e.g. checkpoints/commands/, memory/commands/)
//     runtime/         the runtime, and the contracts features implement (command and turn-step definitions)
//     agent/           the loop
//     below the agent  a DAG, not a stack (BELOW_AGENT): each folder imports only what its arrows
//                      reach, e.g. mcp → tools → security → config
//                      (security/programs/, the program registry, is data: it imports nothing of the screen)
//     util/, version.ts  the bottom: they import nothing else of the server
//   common/            shared by server, extension and panel (the webview protocol, shared types):
//                      below everything, importing nothing of acp-server/, extension/ or webview-ui/
//
// Only the ACP edges import @agentclientprotocol/sdk: acp-server/acp/, the ACP clients (acp-server/cli/
// and extension/), and common/ (type-only re-exports, for the panel). Everything else speaks the
// server's own types, converted at the edge.
//
// TYPE-ONLY IMPORTS COUNT (tsPreCompilationDeps: true), with no exemption. An `import type` from an
// upper layer means the lower layer's contract is defined above it: the layer cannot be read,
// tested or moved without the one above, and type cycles are what make a later split painful.
// When a lower layer needs a shape, the shape moves down (or the lower layer names the narrow part
// it reads, as security/policy-ask.ts does for the permission policy).
//
// NO EXCEPTIONS. There is no list of tolerated violations: a violation is fixed (the import, or
// the shape moved to where both sides may reach it), or the map here is changed on purpose.
"use strict";

/** Source roots the rules speak about (the cruise covers these folders). */
const ROOTS = ["acp-server", "extension", "webview-ui", "common"];
const ANY_SOURCE = `^(${ROOTS.join("|")})/`;

/**
 * A feature's slash commands: acp-server/<folder>/commands/**, in any folder that is not itself
 * one of the layers above the features or the runtime/agent/util below them (a commands/ folder
 * there is simply part of that layer, e.g. runtime/commands/ for the command contracts).
 */
const FEATURE_COMMANDS = "^acp-server/(?!(?:cli|acp|app|runtime|agent|util)/)[^/]+/commands/";

/** A folder of the server, without a commands/ subfolder (that one belongs to the features layer). */
const folder = (name) => `^acp-server/${name}/(?!commands/)`;

/**
 * Below the agent: who imports whom, derived from the real imports when the rules came in.
 * Each folder may import what its arrows reach, directly or through others (so sessions may
 * import config through providers), plus util/, version.ts and common/. An arrow added here
 * must keep the graph acyclic: the closure below refuses a cycle.
 */
const BELOW_AGENT = {
  mcp: ["tools", "providers", "security", "config"],
  sessions: ["tools", "providers"],
  tools: ["skills", "memory", "security", "config"],
  skills: ["plugins", "security", "config"],
  memory: ["security"],
  checkpoints: ["security", "config"],
  // JSON-RPC over stdio (frame checks, stdout writes), for the edge and the lean entry.
  transport: ["config"],
  providers: ["config"],
  security: ["config"],
  // Installed plugins read from disk (their manifest and what they bring); nothing runs here.
  plugins: ["config"],
  // Hooks: their sources (config, project file, plugins), trust, runner and what they answered.
  hooks: ["tools", "plugins", "security", "config"],
  // An apply into the main checkout carries its files in with the checkpoint restore's own ops.
  worktrees: ["sessions", "tools", "checkpoints", "config"],
  config: [],
};

/** The server's layers, top to bottom. `paths` are regular expressions on paths from the repository root. */
const SERVER_LAYERS = [
  { name: "main", paths: ["^acp-server/main\\.ts$"] },
  { name: "cli", paths: ["^acp-server/cli/"] },
  { name: "acp", paths: ["^acp-server/acp/"] },
  { name: "app", paths: ["^acp-server/app/"] },
  { name: "features", paths: ["^acp-server/(learning|delegate)/", FEATURE_COMMANDS] },
  { name: "runtime", paths: ["^acp-server/runtime/"] },
  { name: "agent", paths: ["^acp-server/agent/"] },
  // One entry per folder of the DAG; what each may import is narrowed by BELOW_AGENT.
  ...Object.keys(BELOW_AGENT).map((name) => ({ name, paths: [folder(name)], dag: true })),
  { name: "util", paths: ["^acp-server/util/", "^acp-server/version\\.ts$"] },
];

/** Server library modules the extension bundles and runs itself (the OS sandbox, framing, child env). */
const EXTENSION_REUSES = [
  "^acp-server/security/sandbox/",
  "^acp-server/security/child-env\\.ts$",
  "^acp-server/util/ndjson-lines\\.ts$",
  "^acp-server/util/ndjson-stream\\.ts$",
  "^acp-server/config/frame-limit\\.ts$",
];

/** The ACP SDK, wherever the package manager put it. */
const ACP_SDK = "(^|/)node_modules/@agentclientprotocol/sdk/";

/** Every folder of the DAG that `name` reaches through its arrows (not itself: that would be a cycle). */
function reachable(name) {
  const seen = new Set();
  const visit = (from) => {
    for (const next of BELOW_AGENT[from]) {
      if (seen.has(next)) continue;
      seen.add(next);
      visit(next);
    }
  };
  visit(name);
  if (seen.has(name)) throw new Error(`.dependency-cruiser.cjs: BELOW_AGENT has a cycle through ${name}`);
  return seen;
}

/** The layers a server layer may import: its own, and those below it that it reaches. */
function reachedFrom(index) {
  const layer = SERVER_LAYERS[index];
  // Within the DAG, by its arrows; otherwise, by position.
  const reaches = (other, otherIndex) => (layer.dag && other.dag ? reachable(layer.name).has(other.name) : otherIndex > index);
  return [layer, ...SERVER_LAYERS.filter(reaches)];
}

/**
 * One rule per server layer: importing a server module outside the layers it reaches is an error.
 * (common/ is open to every layer; extension/ and webview-ui/ are server-not-to-editor's.)
 */
const serverLayerRules = SERVER_LAYERS.map((layer, index) => {
  const reached = reachedFrom(index);
  return {
    name: `layer-${layer.name}`,
    severity: "error",
    comment:
      `acp-server ${layer.name} imports only ${reached.map((other) => other.name).join(", ")} (and common/): ` +
      "nothing above it. Move the shared piece down, or invert the dependency.",
    from: { path: layer.paths },
    to: { path: "^acp-server/", pathNot: reached.flatMap((other) => other.paths) },
  };
});

module.exports = {
  forbidden: [
    {
      // (a) No cycles anywhere in our code, type-only ones included: a cycle makes two modules one
      // (neither can be understood, tested or moved alone), and with ES modules it can leave a
      // binding undefined at load time depending on which file was imported first.
      name: "no-circular",
      severity: "error",
      comment: "Import cycle: move the piece both sides share into a module of its own, below both.",
      from: { path: ANY_SOURCE },
      to: { circular: true },
    },
    // (b) Nothing imports upward: one rule per server layer (generated from SERVER_LAYERS above).
    ...serverLayerRules,
    {
      // (b) A new folder in acp-server/ (or a new file at its top) gets a place on the map first:
      // add it to SERVER_LAYERS / BELOW_AGENT, and say where it sits in the comment at the top.
      name: "layer-unmapped",
      severity: "error",
      comment: "This acp-server module is on no layer of .dependency-cruiser.cjs: add its folder to the map.",
      from: { path: "^acp-server/", pathNot: SERVER_LAYERS.flatMap((layer) => layer.paths) },
      to: { path: ANY_SOURCE },
    },
    {
      // (b) The server knows nothing of its clients: what the extension or the panel and the server
      // share lives in common/.
      name: "server-not-to-editor",
      severity: "error",
      comment: "acp-server imports neither extension/ nor webview-ui/; shared modules live in common/.",
      from: { path: "^acp-server/" },
      to: { path: "^(extension|webview-ui)/" },
    },
    {
      // (b) The extension talks to the server over ACP. It bundles only a few server library
      // modules it genuinely runs itself (EXTENSION_REUSES); the panel's protocol and state types
      // come from common/.
      name: "extension-imports",
      severity: "error",
      comment: `extension/ imports only common/ and these server modules: ${EXTENSION_REUSES.join(" ")}.`,
      from: { path: "^extension/" },
      to: { path: "^(acp-server|webview-ui)/", pathNot: EXTENSION_REUSES },
    },
    {
      // (b) The program registry (security/programs/) is data at the bottom of the command screen:
      // every screen table derives from it, so it imports nothing of the screen (no rule code, no parser).
      name: "program-registry-is-data",
      severity: "error",
      comment: "acp-server/security/programs/ imports only its own files: the screen reads the registry, never the reverse.",
      from: { path: "^acp-server/security/programs/" },
      to: { path: "^acp-server/", pathNot: "^acp-server/security/programs/" },
    },
    {
      // (b) The panel runs in a webview and hears only the host's messages.
      name: "webview-imports",
      severity: "error",
      comment: "webview-ui/ imports only common/ and npm packages.",
      from: { path: "^webview-ui/" },
      to: { path: "^(acp-server|extension)/" },
    },
    {
      // (b) common/ is the bottom of everything: it cannot lean on any side.
      name: "common-imports",
      severity: "error",
      comment: "common/ imports nothing of acp-server/, extension/ or webview-ui/.",
      from: { path: "^common/" },
      to: { path: "^(acp-server|extension|webview-ui)/" },
    },
    {
      // (c) The ACP SDK stays at the edges; the rest of the server works on its own types, which
      // the edge converts (pure functions in acp/). Hermes as an ACP client of child agents is an
      // edge too: acp/child-agent/, reached by delegation through delegate/external-agent.ts.
      name: "acp-sdk-at-the-edges",
      severity: "error",
      comment:
        "Only acp-server/acp/, acp-server/cli/, extension/ and common/ import @agentclientprotocol/sdk. " +
        "Elsewhere use the server's own types (or, in the panel, the SDK types common/ re-exports).",
      from: { path: ANY_SOURCE, pathNot: ["^acp-server/(acp|cli)/", "^extension/", "^common/"] },
      to: { path: ACP_SDK },
    },
    {
      // (c) common/ is bundled into the panel: it re-exports SDK types only (`import type` /
      // `export type`), which the compiler erases, so no SDK code ships to the webview.
      name: "acp-sdk-types-only-in-common",
      severity: "error",
      comment: "common/ may import @agentclientprotocol/sdk only with `import type` / `export type`.",
      from: { path: "^common/" },
      to: { path: ACP_SDK, dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    // npm packages are endpoints: their own imports are not ours to check (and not worth the time).
    doNotFollow: { path: "node_modules" },
    // Type-only imports are dependencies too (see "TYPE-ONLY IMPORTS COUNT" above).
    tsPreCompilationDeps: true,
    // node_modules may be a link (a git worktree sharing one install): keep paths as
    // node_modules/…, so the SDK rule's path matches on every checkout.
    preserveSymlinks: true,
    // Package "exports" maps, as Node and esbuild read them (for @agentclientprotocol/sdk/unstable).
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
    // When no file changed since the last run, its result is reused (about 1 s instead of 4);
    // content hashes tell, so no git is needed.
    cache: { folder: "node_modules/.cache/dependency-cruiser", strategy: "content" },
  },
};
