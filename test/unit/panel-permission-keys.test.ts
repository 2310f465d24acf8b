import assert from "node:assert/strict";
import { test } from "node:test";
import { isTextField, permissionShortcut } from "../../webview-ui/lib/permission-keys";

const focusedCard = { inCard: true, typing: false, pending: 2 };

test("digits pick the options in order; beyond the options nothing", () => {
  assert.equal(permissionShortcut({ key: "1" }, focusedCard, 5), 0);
  assert.equal(permissionShortcut({ key: "5" }, focusedCard, 5), 4);
  assert.equal(permissionShortcut({ key: "4" }, focusedCard, 3), undefined);
  assert.equal(permissionShortcut({ key: "0" }, focusedCard, 5), undefined);
  assert.equal(permissionShortcut({ key: "a" }, focusedCard, 5), undefined);
});

test("while typing a digit is text, even inside the card (the rejection reason)", () => {
  assert.equal(permissionShortcut({ key: "1" }, { inCard: false, typing: true, pending: 1 }, 5), undefined);
  assert.equal(permissionShortcut({ key: "1" }, { inCard: true, typing: true, pending: 1 }, 5), undefined);
});

test("outside the card only the single waiting card answers", () => {
  assert.equal(permissionShortcut({ key: "2" }, { inCard: false, typing: false, pending: 1 }, 5), 1);
  assert.equal(permissionShortcut({ key: "2" }, { inCard: false, typing: false, pending: 2 }, 5), undefined);
});

test("modified and repeated keys are not answers (Ctrl+1 is VS Code's, a held key answers once)", () => {
  assert.equal(permissionShortcut({ key: "1", ctrlKey: true }, focusedCard, 5), undefined);
  assert.equal(permissionShortcut({ key: "1", altKey: true }, focusedCard, 5), undefined);
  assert.equal(permissionShortcut({ key: "1", metaKey: true }, focusedCard, 5), undefined);
  assert.equal(permissionShortcut({ key: "1", repeat: true }, focusedCard, 5), undefined);
});

test("text fields are recognised", () => {
  assert.equal(isTextField({ tagName: "TEXTAREA" }), true);
  assert.equal(isTextField({ tagName: "input", type: "search" }), true);
  assert.equal(isTextField({ tagName: "INPUT", type: "checkbox" }), false);
  assert.equal(isTextField({ tagName: "DIV", isContentEditable: true }), true);
  assert.equal(isTextField({ tagName: "BUTTON" }), false);
  assert.equal(isTextField(null), false);
});
