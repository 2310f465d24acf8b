// Which models take images when config does not say: known vision families yes, known text-only
// models and unknown names no (an image sent to a text-only model ends the turn with HTTP 400).
import assert from "node:assert/strict";
import { test } from "node:test";
import { modelSeesImages } from "../../acp-server/config/model-vision";

test("vision by model family; unknown models are taken as text-only", () => {
  const table: [string, boolean][] = [
    ["claude-3-5-sonnet-20241022", true],
    ["claude-3-haiku-20240307", true],
    ["claude-sonnet-4-5", true],
    ["claude-opus-4-1", true],
    ["anthropic/claude-haiku-4.5", true],
    ["claude-2.1", false],
    ["gpt-4o-mini", true],
    ["gpt-4.1", true],
    ["openai/gpt-5", true],
    ["gpt-5-codex", true],
    ["o3", true],
    ["o4-mini", true],
    ["o1-mini", false],
    ["o3-mini", false],
    ["gpt-3.5-turbo", false],
    ["gpt-4", false],
    ["deepseek-chat", false],
    ["deepseek-reasoner", false],
    ["gemini-2.5-pro", true],
    ["qwen2.5-vl-72b-instruct", true],
    ["llama3.2-vision:11b", true],
    ["llava:13b", true],
    ["qwen2.5-coder:32b", false],
    ["fake-model", false],
  ];
  for (const [name, sees] of table) assert.equal(modelSeesImages(name), sees, name);
});
