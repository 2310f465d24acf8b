// A secret sent in pieces, in order: two halves after `fold`, path segments, query parameters
// (`?a=PART1&b=PART2`), groups with spaces or dashes between them. The text is cut into words
// (runs of letters and digits); the secret, without its own punctuation, must be covered from
// start to end by words in order. Words that follow each other in the text join into one part
// (`sk-ant-api03` is three words, one part); other words may sit between parts (parameter names,
// other path segments), at most MAX_GAP_WORDS of them between two parts.
//
// False alarms: a part must be at least MIN_PART characters, and the whole secret must be
// covered. A benign URL that shares a word or two with a secret covers a few characters of it,
// never all of it in order; a 20-character random key covered by chance by 4-character pieces
// in order is not a risk worth a prompt. Shorter parts (a key sent one or two characters per
// parameter) are not found: below four characters a part is any common word or number, and
// ordinary URLs would cover short secrets.
//
// Speed: the first part is at least MIN_PART characters that follow each other once the
// separators are dropped, so starts are found by one native search of the secret's first
// MIN_PART characters in the text's words joined together; each start then looks at a bounded
// number of words (the gap bound). A megabyte is a few tens of milliseconds per secret spelling.

/** The shortest part of a split secret that is recognised (see above). */
export const MIN_PART = 4;
/** Secrets shorter than this (without punctuation) are looked for whole only: split, they are too short to tell apart from ordinary words. */
export const MIN_SPLIT_SECRET = 12;
/** Words allowed between two parts: parameter names and values, path segments. */
export const MAX_GAP_WORDS = 32;

/** The letters and digits of `text`, in order: how a secret is compared with words. */
export function wordCharacters(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, "");
}

/** A text as words, and the same words joined without separators (where parts are searched). */
export interface WordText {
  words: string[];
  joined: string;
  /** Where each word starts in `joined`. */
  offsets: number[];
}

export function wordText(text: string): WordText {
  const words = text.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const offsets: number[] = [];
  let at = 0;
  for (const word of words) {
    offsets.push(at);
    at += word.length;
  }
  return { words, joined: words.join(""), offsets };
}

/** Whether the words cover `secret` (already reduced to word characters) in order, in parts of MIN_PART or more. */
export function coversInParts(text: WordText, secret: string): boolean {
  if (secret.length < MIN_SPLIT_SECRET) return false;
  const head = secret.slice(0, MIN_PART);
  for (let at = text.joined.indexOf(head); at >= 0; at = text.joined.indexOf(head, at + 1)) {
    const index = wordAt(text.offsets, at);
    const tail = text.words[index]!.slice(at - text.offsets[index]!);
    // The first part starts inside this word and runs to its end (and on through the words that follow).
    if (tail.length > secret.length || !secret.startsWith(tail)) continue;
    if (coveredFrom(text.words, index + 1, secret, tail.length)) return true;
  }
  return false;
}

/** The index of the word that holds position `at` of the joined text. */
function wordAt(offsets: readonly number[], at: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (offsets[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The length of the longest tail of `word` (MIN_PART or more) that the secret continues with at `at`. */
function tailStarting(word: string, secret: string, at: number): number | undefined {
  const head = secret.slice(at, at + MIN_PART);
  if (head.length < MIN_PART) return undefined;
  for (let index = word.indexOf(head); index >= 0; index = word.indexOf(head, index + 1)) {
    const tail = word.length - index;
    if (tail <= secret.length - at && secret.startsWith(word.slice(index), at)) return tail;
  }
  return undefined;
}

/**
 * Follows the secret from `covered` characters on, word by word after `next`. A part ends at a
 * word that does not continue it; a part shorter than MIN_PART is taken back (its words were
 * chance), except the first, which fails this start.
 */
function coveredFrom(words: readonly string[], next: number, secret: string, covered: number): boolean {
  let at = covered;
  let part = covered;
  let firstPartOpen = true;
  let gap = 0;
  for (let index = next; index < words.length && at < secret.length; index++) {
    const word = words[index]!;
    if (part > 0 && secret.startsWith(word, at)) {
      at += word.length;
      part += word.length;
      continue;
    }
    // The secret's end may be the start of a longer word (the last piece glued to what follows).
    if (secret.length - at <= word.length && word.startsWith(secret.slice(at)) && part + secret.length - at >= MIN_PART) return true;
    // This word ends the part.
    if (part > 0 && part < MIN_PART) {
      if (firstPartOpen) return false;
      at -= part;
    }
    if (part > 0) firstPartOpen = false;
    part = 0;
    // Does this word start the next part (whole, or its tail)?
    if (secret.startsWith(word, at)) {
      at += word.length;
      part = word.length;
      gap = 0;
      continue;
    }
    const tail = tailStarting(word, secret, at);
    if (tail !== undefined) {
      at += tail;
      part = tail;
      gap = 0;
      continue;
    }
    if (++gap > MAX_GAP_WORDS) return false;
  }
  return at >= secret.length && part >= MIN_PART;
}
