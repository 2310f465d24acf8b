// SKILL.md: YAML frontmatter between `---` lines, then a markdown body. The frontmatter
// follows the Agent Skills convention (name, description) plus Hermes's optional fields
// (version, tags, platforms, requires). Unknown keys (license, metadata, allowed-tools,
// provenance...) are kept as they are: rewriting a skill never drops what others put there.
import type { YAMLParseError } from "yaml";
import { yaml } from "../util/yaml";
import * as z from "zod";
import { AgentError } from "../util/agent-error";

/** Lowercase letters, digits and hyphens: a folder name and a slash command at once. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

const stringList = z.union([z.string().min(1).transform((value) => [value]), z.array(z.string().min(1))]);

export const SkillRequiresSchema = z.union([
  // `requires: [git, gh]` is shorthand for commands.
  stringList.transform((commands) => ({ commands, env: [] as string[] })),
  z
    .object({
      commands: stringList.default([]),
      env: stringList.default([]),
    })
    .loose(),
]);

export const SkillFrontmatterSchema = z
  .object({
    name: z.string().regex(SKILL_NAME, "lowercase letters, digits and hyphens, at most 64 characters"),
    description: z.string().trim().min(1, "a one-line description of when to use the skill is required").max(1024),
    version: z.union([z.string().min(1), z.number()]).transform(String).optional(),
    tags: stringList.default([]),
    /** Operating systems the skill works on: linux, macos (darwin), windows (win32). */
    platforms: stringList.optional(),
    requires: SkillRequiresSchema.optional(),
  })
  .loose();

export type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;

/** A SKILL.md that is not well formed (on disk, or written by skill_manage). */
export class SkillFormatError extends AgentError<"config"> {
  constructor(message: string) {
    super("config", message, {});
    this.name = "SkillFormatError";
  }
}

export interface ParsedSkillFile {
  frontmatter: SkillFrontmatter;
  /** The frontmatter exactly as written (without the `---` lines). */
  frontmatterText: string;
  body: string;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

/** Splits a SKILL.md into its frontmatter text and body; throws SkillFormatError when there is no frontmatter. */
export function splitSkillFile(text: string): { frontmatterText: string; body: string } {
  const opening = OPENING.exec(text);
  if (!opening) throw new SkillFormatError("it does not start with a `---` frontmatter block");
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new SkillFormatError("the frontmatter block is not closed with a `---` line");
  const frontmatterText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  return { frontmatterText, body };
}

/** Parses and validates a SKILL.md. `folderName` stands in for a missing `name`. */
export function parseSkillFile(text: string, folderName?: string): ParsedSkillFile {
  const { frontmatterText, body } = splitSkillFile(text);
  const data = parseYamlMapping(frontmatterText);
  if (data.name === undefined && folderName) data.name = folderName;
  const parsed = SkillFrontmatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue?.path.length ? issue.path.join(".") : "frontmatter";
    throw new SkillFormatError(`${key}: ${issue?.message ?? "invalid"}`);
  }
  return { frontmatter: parsed.data, frontmatterText, body };
}

/**
 * The bundled skills' frontmatter, parsed at build time (scripts/bundled-frontmatter.mjs): the JSON
 * of a table from exact frontmatter text to the JSON of its YAML data. esbuild injects it; unbundled
 * runs (tests) have none.
 */
declare const HERMES_BUNDLED_FRONTMATTER: string | undefined;
let preparsedTable: Readonly<Record<string, string>> | undefined;

function preparsed(text: string): Record<string, unknown> | undefined {
  preparsedTable ??= typeof HERMES_BUNDLED_FRONTMATTER === "string" ? (JSON.parse(HERMES_BUNDLED_FRONTMATTER) as Record<string, string>) : {};
  const json = Object.hasOwn(preparsedTable, text) ? preparsedTable[text] : undefined;
  // A fresh copy each time: parseSkillFile may fill in the name.
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
}

function parseYamlMapping(text: string): Record<string, unknown> {
  // A bundled skill as shipped: what YAML made of this very text at build time. Any other text, an
  // edited skill included, is parsed here.
  const known = preparsed(text);
  if (known) return known;
  const { isMap, parseDocument } = yaml();
  const document = parseDocument(text, { prettyErrors: false });
  const error = document.errors[0];
  if (error) throw new SkillFormatError(`invalid YAML in the frontmatter: ${firstLine(error)}`);
  if (document.contents === null) return {};
  if (!isMap(document.contents)) throw new SkillFormatError("the frontmatter must be a YAML mapping (key: value lines)");
  return document.toJS() as Record<string, unknown>;
}

function firstLine(error: YAMLParseError): string {
  return error.message.split("\n")[0] ?? error.message;
}

export interface Provenance {
  author: "agent" | "user";
  sessionId?: string;
  /** ISO date (YYYY-MM-DD). */
  date: string;
  /** What changed: create, edit, patch, write_file, remove_file. */
  change: string;
}

/**
 * The same SKILL.md with its version bumped and `provenance` set, the rest of the frontmatter
 * (order, comments) and the body untouched. `previousVersion` is the version before the change;
 * a new skill keeps the version it was written with, or starts at 1.0.0. A missing `name` is
 * added (first), so a skill written without one still matches its folder.
 */
export function stampSkillFile(text: string, provenance: Provenance, previousVersion?: string, name?: string): string {
  const { frontmatterText, body } = splitSkillFile(text);
  const { isMap, parseDocument } = yaml();
  const document = parseDocument(frontmatterText);
  if (name && !document.has("name")) {
    document.set("name", name);
    // Put it first, where readers look for it.
    if (isMap(document.contents)) document.contents.items.unshift(document.contents.items.pop()!);
  }
  const written = document.get("version");
  const writtenVersion = typeof written === "string" || typeof written === "number" ? String(written) : undefined;
  const version = previousVersion === undefined ? (writtenVersion ?? "1.0.0") : bumpVersion(newer(previousVersion, writtenVersion));
  document.set("version", version);
  document.set("provenance", {
    author: provenance.author,
    ...(provenance.sessionId ? { session: provenance.sessionId } : {}),
    date: provenance.date,
    change: provenance.change,
  });
  return `---\n${document.toString({ lineWidth: 0 }).trimEnd()}\n---\n${body}`;
}

/** 1.0.0 → 1.0.1, 3 → 4, 2.1 → 2.2, anything else gets ".1" appended. */
export function bumpVersion(version: string): string {
  const match = /^(.*?)(\d+)$/.exec(version.trim());
  if (!match) return `${version.trim()}.1`;
  return `${match[1]}${Number(match[2]) + 1}`;
}

/** The higher of two versions compared part by part (the model may have raised it itself). */
function newer(previous: string, written: string | undefined): string {
  if (written === undefined) return previous;
  const parts = (version: string) => version.split(/[.-]/).map((part) => (/^\d+$/.test(part) ? Number(part) : 0));
  const [a, b] = [parts(previous), parts(written)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x, y] = [a[i] ?? 0, b[i] ?? 0];
    if (x !== y) return x > y ? previous : written;
  }
  return previous;
}
