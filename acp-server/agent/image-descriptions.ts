// Descriptions of a conversation's images by the vision model, for a main model that takes text
// only (text-only-request.ts puts them in place of the images). Each image is described once
// per session (kept by its bytes' hash): the history is sent again with every call. With the
// vision model named (`describer`), descriptions are also kept on disk under
// $HERMES_HOME/cache/image-descriptions (mode 600, already redacted), so a reloaded or resumed
// session does not pay for them again.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { hermesHome } from "../config/paths";
import { isAbortError } from "../providers/stream-guard";
import { writeFileAtomicSync } from "../util/atomic-write";
import type { ChatMessage, ModelRequest } from "../providers/types";
import { redactSecrets } from "../util/redact";
import type { ModelChoice } from "./model-choice";
import { hasImages, imageKey, imagesOf, textOnlyRequest, type ImageBytes, type ImageDescriptions } from "./text-only-request";

const DESCRIBE_QUESTION =
  "Describe this image for an assistant that cannot see it: what it shows, every legible text (verbatim), layout, colours and anything that looks wrong (errors, broken layout). Be factual and concise.";

export type DescribeImage = (image: ImageBytes, question: string) => Promise<string>;

const bySession = new WeakMap<object, { known: Map<string, string>; failed: Set<string> }>();

/**
 * Describes the images of `messages` not yet described for `owner` (the session) and returns
 * every description known. An image whose description failed is not asked about again in this
 * session (every call would wait on a failing model): the note stands in for it, and the failure
 * is returned to be told to the user once.
 */
export async function describeImages(owner: object, messages: readonly ChatMessage[], describe: DescribeImage, describer?: string): Promise<{ descriptions: ImageDescriptions; failures: string[] }> {
  let state = bySession.get(owner);
  if (!state) bySession.set(owner, (state = { known: new Map(), failed: new Set() }));
  const failures: string[] = [];
  for (const image of messages.flatMap(imagesOf)) {
    const key = imageKey(image);
    if (state.known.has(key) || state.failed.has(key)) continue;
    const kept = describer ? readKept(key, describer) : undefined;
    if (kept !== undefined) {
      state.known.set(key, kept);
      continue;
    }
    try {
      // Model input, like a tool's output: a key legible in a screenshot goes no further.
      const description = redactSecrets(await describe(image, DESCRIBE_QUESTION));
      state.known.set(key, description);
      if (describer) keep(key, describer, description);
    } catch (error) {
      // A cancelled turn: the call that follows ends as cancelled; the image is asked about next time.
      if (isAbortError(error)) break;
      state.failed.add(key);
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { descriptions: state.known, failures };
}

/** The file a description of image `key` by `describer` is kept in. */
function keptFile(key: string, describer: string): string {
  const name = createHash("sha256").update(describer).update("\0").update(key).digest("hex").slice(0, 40);
  return path.join(hermesHome(), "cache", "image-descriptions", `${name}.txt`);
}

function readKept(key: string, describer: string): string | undefined {
  try {
    return readFileSync(keptFile(key, describer), "utf8");
  } catch {
    // expected: not described before (ENOENT), or unreadable: described again
    return undefined;
  }
}

function keep(key: string, describer: string, description: string): void {
  const file = keptFile(key, describer);
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(file, description);
  } catch {
    // expected: a read-only or full HERMES_HOME; the description still serves this session
  }
}

export interface TextOnlyOptions {
  /** The chain of models the call may go to. */
  models: readonly ModelChoice[];
  /** Whose descriptions these are (the session). */
  owner: object;
  /** Asks the vision model; absent when there is none (the images become notes). */
  describe?: DescribeImage;
  /** The vision model's id: its descriptions are kept on disk across reloads (absent: this session only). */
  describer?: string;
  notice: (text: string) => void;
}

/**
 * The variant of `request` for the chain's text-only models, or undefined when none is needed
 * (no image, or every model sees). Images are described first when a vision model is configured
 * and the first model is text-only; for a text-only fallback behind a model that sees, notes
 * (describing every image of every turn for a call that may never be made would cost the most).
 */
export async function textOnlyVariant(request: ModelRequest, options: TextOnlyOptions): Promise<ModelRequest | undefined> {
  if (options.models.every((model) => model.vision) || !hasImages(request.messages)) return undefined;
  if (!options.describe || options.models[0]?.vision) return textOnlyRequest(request, new Map());
  const { descriptions, failures } = await describeImages(options.owner, request.messages, options.describe, options.describer);
  if (failures.length > 0) options.notice(`The vision model could not describe ${failures.length === 1 ? "an image" : `${failures.length} images`} for the text-only model (${failures[0]}); a note stands in for it.`);
  return textOnlyRequest(request, descriptions);
}
