// Screenshots in the panel's tool cards: a card whose content holds an image block (live or
// replayed by session/load) keeps it in the panel state (which passes the snapshot schema a
// reload restores), starts open, and shows it from a data URL of a raster type only; other
// types and data that is not base64 are not put in an <img>.
import type * as acp from "@agentclientprotocol/sdk";
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatAction } from "../../common/panel-state/actions";
import { initialState, reduce } from "../../common/panel-state/reducer";
import { chatStateSchema } from "../../common/panel-state/schemas";
import { hasShownImage, imageLabel, imageSource } from "../../webview-ui/lib/tool-image";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function apply(...updates: acp.SessionUpdate[]) {
  const actions: ChatAction[] = [{ type: "sessionOpened", sessionId: "s1", loading: false }, ...updates.map((update): ChatAction => ({ type: "update", update }))];
  return actions.reduce(reduce, initialState());
}

test("a replayed screenshot card keeps its image in the panel state, which a reload restores", () => {
  const card: acp.SessionUpdate = {
    sessionUpdate: "tool_call",
    toolCallId: "c1",
    title: "Screenshot",
    kind: "read",
    status: "completed",
    content: [{ type: "content", content: { type: "image", mimeType: "image/png", data: PNG } }],
  };
  const state = apply(card);
  const item = state.items[0];
  assert.ok(item?.kind === "tool");
  assert.deepEqual(item.content, card.content);
  assert.ok(hasShownImage(item.content), "a quiet (read) card with a screenshot starts open");
  assert.ok(chatStateSchema.safeParse(state).success, "the state with the image passes the snapshot schema");
});

test("only raster images with base64 data become a data URL", () => {
  assert.equal(imageSource({ mimeType: "image/png", data: PNG }), `data:image/png;base64,${PNG}`);
  assert.equal(imageSource({ mimeType: "IMAGE/JPEG", data: "AAAA" }), "data:image/jpeg;base64,AAAA");
  for (const mimeType of ["image/gif", "image/webp"]) assert.ok(imageSource({ mimeType, data: "AAAA" }));
  assert.equal(imageSource({ mimeType: "image/svg+xml", data: "PHN2Zz4=" }), undefined, "no SVG");
  assert.equal(imageSource({ mimeType: "text/html", data: "AAAA" }), undefined);
  assert.equal(imageSource({ mimeType: "image/png", data: 'AAAA" onerror="x' }), undefined, "data that is not base64");
  assert.equal(imageSource({ mimeType: "image/png", data: "" }), undefined);
  assert.equal(hasShownImage([{ type: "content", content: { type: "text", text: "no image" } }]), false);
  assert.equal(hasShownImage([{ type: "content", content: { type: "image", mimeType: "image/svg+xml", data: "PHN2Zz4=" } }]), false);
});

test("the caption names the type and size", () => {
  assert.equal(imageLabel({ mimeType: "image/png", data: PNG }), "PNG, 1 KB");
  assert.equal(imageLabel({ mimeType: "image/jpeg", data: "A".repeat(4 * 1024 * 1024) }), "JPEG, 3.0 MB");
});
