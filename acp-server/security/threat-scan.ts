// Screens text that will be stored and later fed back to the model (memory entries):
// prompt injection, exfiltration, backdoors, agent-config tampering and hidden content.
// Returns a short reason for the first match; ordinary notes should pass untouched.

interface ThreatPattern {
  reason: string;
  pattern: RegExp;
}

const SECRET_VAR = String.raw`\$\{?[A-Za-z_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)[A-Za-z_]*\}?`;
const SENDERS = String.raw`\b(?:curl|wget|nc|ncat|netcat|scp|rsync|ftp|sftp|telnet)\b`;
const SECRET_FILES = String.raw`(?:(?:^|[\s/"'=@<])\.env\b|~/\.ssh\b|\$HOME/\.ssh\b|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.netrc\b)`;

const WRITE_VERBS = String.raw`\b(?:edit|modify|change|overwrite|rewrite|write|append|add|insert|update|set|replace|disable|turn\s+off)\b`;
const HERMES_CONFIG = String.raw`(?:~|\$HOME|\$\{HOME\})\/\.hermes\/config\.ya?ml|\$\{?HERMES_HOME\}?\/config\.ya?ml`;

const PATTERNS: ThreatPattern[] = [
  { reason: "prompt injection: asks to ignore previous instructions", pattern: /\bignore\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding)\s+(?:instructions|prompts?|rules|directions)/i },
  { reason: "prompt injection: asks to disregard instructions", pattern: /\bdisregard\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous\s+|prior\s+|above\s+|earlier\s+|system\s+)?(?:instructions|prompts?|rules|guidelines|directions)/i },
  { reason: "prompt injection: forget instructions", pattern: /\bforget\s+(?:all\s+|everything\s+)?(?:your\s+|the\s+)?(?:previous\s+|prior\s+)?(?:instructions|rules|guidelines)/i },
  { reason: "prompt injection: role reassignment (\"you are now ...\")", pattern: /\byou\s+are\s+now\s+(?:a|an|the|in|my|no\s+longer|DAN|free|unrestricted|jailbroken)\b/i },
  { reason: "prompt injection: \"new instructions\"", pattern: /\bnew\s+(?:system\s+)?instructions\s*:/i },
  { reason: "prompt injection: role marker at line start", pattern: /^\s*(?:#+\s*)?(?:system|assistant|developer|SYSTEM|ASSISTANT|DEVELOPER)\s*:/m },
  { reason: "prompt injection: chat template token", pattern: /<\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|>/i },
  { reason: "prompt injection: fake system tag", pattern: /<\/?\s*(?:system|system[-_]prompt|instructions)\s*>/i },
  { reason: "system prompt override", pattern: /\b(?:override|replace|bypass|ignore)\s+(?:the\s+|your\s+|any\s+)?system\s+prompt\b/i },
  { reason: "system prompt extraction", pattern: /\b(?:reveal|print|show|output|repeat|leak|dump)\s+(?:me\s+)?(?:the\s+|your\s+)?(?:full\s+|entire\s+)?system\s+prompt\b/i },
  { reason: "exfiltration: network command with a secret variable", pattern: new RegExp(`${SENDERS}[^\\n]*${SECRET_VAR}|${SECRET_VAR}[^\\n]*\\|\\s*${SENDERS}`, "i") },
  { reason: "exfiltration: secret file sent over the network", pattern: new RegExp(`${SENDERS}[^\\n]*${SECRET_FILES}|${SECRET_FILES}[^\\n]*(?:\\|\\s*)?${SENDERS}`, "i") },
  { reason: "exfiltration: reading secrets and sending them", pattern: /\b(?:cat|read|upload|send|post|copy)\b[^\n]*(?:~\/\.ssh|\bid_rsa\b|\.env\b)[^\n]*\b(?:to|https?:\/\/)/i },
  { reason: "backdoor: writes to authorized_keys", pattern: /(?:>>?|\btee\b(?:\s+-a)?|\becho\b|\bcat\b[^\n]*>>?|\bappend\b|\badd\b)[^\n]*authorized_keys/i },
  { reason: "agent config tampering: Hermes config", pattern: new RegExp(`(?:${WRITE_VERBS}|>>?|\\btee\\b|\\bsed\\s+-i\\b)[^\\n]*(?:${HERMES_CONFIG})`, "i") },
  { reason: "agent config tampering: .claude settings", pattern: new RegExp(`(?:${WRITE_VERBS}|>>?|\\btee\\b|\\bsed\\s+-i\\b)[^\\n]*\\.claude\\/settings`, "i") },
  { reason: "agent config tampering: rewriting AGENTS.md", pattern: /\b(?:edit|modify|rewrite|overwrite|replace|change|append|add|write|insert|update)\b[^\n]*\b(?:AGENTS|CLAUDE)\.md\b[^\n]*\b(?:instructions?|rules?|always|never|must)\b|(?:>>?|\btee\b)\s*\S*\b(?:AGENTS|CLAUDE)\.md\b/i },
  { reason: "hidden HTML comment", pattern: /<!--[\s\S]*?-->/ },
  { reason: "hidden markdown comment", pattern: /^\s*\[\/\/\]\s*:\s*#/m },
];

const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;

/** A short reason when `text` looks hostile, else undefined. */
export function scanForThreats(text: string): string | undefined {
  const invisible = INVISIBLE.exec(text);
  if (invisible) {
    const code = invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    return `invisible or bidirectional Unicode character U+${code}`;
  }
  for (const { reason, pattern } of PATTERNS) {
    if (pattern.test(text)) return reason;
  }
  return undefined;
}
