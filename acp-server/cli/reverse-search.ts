// Ctrl-R at the chat prompt: an incremental search back through earlier lines, as in bash.
// Node's readline walks history with up/down but has no search, so its key handler is wrapped:
// while a search is open, keys edit the query instead of the line. Enter runs the match, Esc or
// an arrow keeps it for editing, Ctrl-G or Ctrl-C gives the line back as it was.
import type { Interface } from "node:readline";

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  sequence?: string;
}
type KeyHandler = (text: string | undefined, key: Key | undefined) => void;

/** Readline's key handler (a legacy but kept hook, present in Node 20 to 24). */
interface WithKeyHandler {
  _ttyWrite?: KeyHandler;
  history?: string[];
}

/**
 * Wraps `rl`'s key handler. `active()` says whether the prompt is the chat's (answers to questions
 * get no search). The search reads `rl.history` (newest first). Returns false when this readline
 * has no key handler to wrap (not a terminal): then there is simply no Ctrl-R.
 */
export function addReverseSearch(rl: Interface, output: NodeJS.WritableStream, active: () => boolean): boolean {
  const target = rl as unknown as WithKeyHandler;
  const original = target._ttyWrite;
  if (typeof original !== "function") return false;
  const pass: KeyHandler = (text, key) => original.call(rl, text, key);
  let search: { query: string; index: number; before: string } | undefined;

  const history = () => target.history ?? [];
  const find = (from: number, query: string) => {
    const entries = history();
    for (let i = Math.max(from, 0); i < entries.length; i++) if (entries[i]?.includes(query)) return i;
    return -1;
  };
  const match = () => (search && search.index >= 0 ? history()[search.index] : undefined);
  const render = () => {
    if (!search) return;
    const label = search.query && search.index < 0 ? "failed reverse-i-search" : "reverse-i-search";
    output.write(`\r\x1b[K(${label})\`${search.query}': ${match() ?? ""}`);
  };
  /** Ends the search with `text` as the line; readline redraws the prompt and the line. */
  const finish = (text: string) => {
    search = undefined;
    pass(undefined, { ctrl: true, name: "e" });
    pass(undefined, { ctrl: true, name: "u" });
    if (text) rl.write(text);
  };

  target._ttyWrite = (text, key) => {
    if (!search) {
      if (key?.ctrl && key.name === "r" && active()) {
        search = { query: "", index: -1, before: rl.line };
        render();
        return;
      }
      return pass(text, key);
    }
    if (key?.ctrl && key.name === "r") {
      const next = find(search.index + 1, search.query);
      if (next >= 0) search.index = next;
      return render();
    }
    if ((key?.ctrl && (key.name === "g" || key.name === "c")) || key?.name === "escape") {
      const keep = key.name === "escape" ? (match() ?? search.before) : search.before;
      return finish(keep);
    }
    if (key?.name === "return" || key?.name === "enter") {
      finish(match() ?? search.before);
      return pass(text, key);
    }
    if (key?.name === "backspace") {
      search.query = search.query.slice(0, -1);
      search.index = search.query ? find(0, search.query) : -1;
      return render();
    }
    if (text && !key?.ctrl && !key?.meta && text.length === 1 && text >= " ") {
      search.query += text;
      const found = find(search.index, search.query);
      search.index = found >= 0 ? found : find(0, search.query);
      return render();
    }
    // Any other key (arrows, Home, Tab, Ctrl-A...): keep the match for editing, then do the key.
    finish(match() ?? search.before);
    return pass(text, key);
  };
  return true;
}
