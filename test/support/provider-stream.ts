// Helpers shared by the provider tests: run a stream to its end, capture its failure, wait
// for the scripted server to notice something.
import assert from "node:assert/strict";
import type { ModelEvent, ModelProvider, ModelRequest } from "../../acp-server/providers/types";

export async function collect(provider: ModelProvider, request: ModelRequest, signal = new AbortController().signal): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of provider.stream(request, signal)) events.push(event);
  return events;
}

/** The error the promise fails with (the test fails if it does not). */
export async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail("expected the stream to fail");
}

export const textOf = (events: ModelEvent[], type: "text_delta" | "reasoning_delta") =>
  events.flatMap((e) => (e.type === type ? [e.text] : [])).join("");
