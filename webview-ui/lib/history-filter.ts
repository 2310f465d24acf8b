// History search: case-insensitive match of every word of the query against the title
// ("Untitled" for sessions without one), newest first. Pure.

export interface SessionLike {
  title?: string;
  updatedAt?: string;
}

export function filterSessions<T extends SessionLike>(sessions: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = words.length === 0 ? [...sessions] : sessions.filter((s) => words.every((w) => (s.title?.trim() || "Untitled").toLowerCase().includes(w)));
  return matches.sort((a, b) => (Date.parse(b.updatedAt ?? "") || 0) - (Date.parse(a.updatedAt ?? "") || 0));
}
