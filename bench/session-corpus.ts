// A synthetic but realistically skewed corpus for the search benchmark: words drawn from a
// Zipf distribution over ~20,000 words (a few very common, most rare, as in real text),
// messages of varied length by role, deterministic for a given seed.
import type { JournalRecord } from "../acp-server/sessions/types";

const COMMON = (
  "the to of and a in is it you that for on this with be are not can as if file error function test " +
  "we use code will from at by an or have i was but there your so do should add fix run value type return " +
  "change line data new when which need build config import export class module string path call update check"
).split(" ");

const SYLLABLES = "ka lo mi ne ru sa ti vo ze bra cle dri fla gro ple qui sto tra wen xor yul zan por lek mun".split(" ");

/** The vocabulary, most frequent first. */
export function vocabulary(size = 20_000): string[] {
  const words = [...COMMON];
  const seen = new Set(words);
  for (let i = 0; words.length < size; i++) {
    // Two to four syllables from the digits of i in base 26: distinct, pronounceable-ish.
    let n = i;
    let word = "";
    do {
      word += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    } while (n > 0);
    if (word.length >= 4 && !seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

export class Corpus {
  readonly words: string[];
  private readonly cumulative: Float64Array;
  private state: number;

  constructor(seed = 1, exponent = 1.05) {
    this.words = vocabulary();
    this.cumulative = new Float64Array(this.words.length);
    let total = 0;
    for (let rank = 0; rank < this.words.length; rank++) {
      total += 1 / Math.pow(rank + 1, exponent);
      this.cumulative[rank] = total;
    }
    for (let rank = 0; rank < this.words.length; rank++) this.cumulative[rank] /= total;
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1) from a 32-bit LCG. */
  random(): number {
    this.state = (Math.imul(this.state, 1_664_525) + 1_013_904_223) >>> 0;
    return this.state / 4_294_967_296;
  }

  word(): string {
    const target = this.random();
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return this.words[low];
  }

  text(words: number): string {
    const out: string[] = [];
    for (let i = 0; i < words; i++) out.push(this.word());
    return out.join(" ");
  }

  /** Message `seq` of a session: user prompts are short, tool results long. */
  message(seq: number, at: number): JournalRecord {
    const kind = seq % 3;
    const length = Math.floor((kind === 0 ? 15 : kind === 1 ? 50 : 110) * (0.4 + this.random() * 1.2));
    const text = this.text(length);
    const tokens = Math.ceil(text.length / 4);
    if (kind === 0) return { t: "message", seq, at, tokens, message: { role: "user", content: [{ type: "text", text }] } };
    if (kind === 1) {
      return {
        t: "message",
        seq,
        at,
        tokens,
        message: { role: "assistant", content: text, toolCalls: [{ id: `c${seq}`, name: "read_file", arguments: JSON.stringify({ path: `src/${this.word()}.ts` }) }] },
      };
    }
    return { t: "message", seq, at, tokens, message: { role: "tool", toolCallId: `c${seq - 1}`, name: "read_file", content: text } };
  }
}
