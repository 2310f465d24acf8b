// Masks things that look like credentials before text is logged or shown.
// Deliberately conservative: known key prefixes and "key=value" pairs with secret-ish names.
const PATTERNS: RegExp[] = [
  /\b(sk-(?:ant-|proj-|or-)?[A-Za-z0-9_-]{8})[A-Za-z0-9_-]{8,}/g,
  /\b(gh[pousr]_[A-Za-z0-9]{4})[A-Za-z0-9]{16,}/g,
  /\b(AKIA[0-9A-Z]{4})[0-9A-Z]{12}\b/g,
  /\b(xox[abpr]-[A-Za-z0-9]{4})[A-Za-z0-9-]{8,}/g,
  /((?:api[_-]?key|token|secret|password|authorization)["']?\s*[:=]\s*["']?(?:Bearer\s+)?)[^\s"',}]{6,}/gi,
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const pattern of PATTERNS) out = out.replace(pattern, "$1…[redacted]");
  return out;
}
