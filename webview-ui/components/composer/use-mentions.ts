// `@` mentions: while the caret is in an `@word`, ask the host for matching workspace files
// (debounced) and keep the results that answer the current query.
import { useEffect, useRef, useState } from "preact/hooks";
import { onHostEvent } from "../../bridge/host-events";
import { post } from "../../bridge/vscode-api";

export interface MentionFile {
  uri: string;
  path: string;
}

const DEBOUNCE_MS = 120;

export function useMentionResults(query: string | undefined): MentionFile[] {
  const [results, setResults] = useState<{ query: string; files: MentionFile[] }>({ query: "", files: [] });
  const current = useRef(query);
  current.current = query;

  useEffect(
    () =>
      onHostEvent((event) => {
        if (event.type === "mentionResults" && event.query === current.current) setResults({ query: event.query, files: event.files });
      }),
    [],
  );

  useEffect(() => {
    if (query === undefined) return;
    const timer = setTimeout(() => post({ type: "mentionSearch", query }), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  return query !== undefined && results.query === query ? results.files : [];
}
