// Small stroke icons drawn inline (16×16, currentColor), in the spirit of VS Code's codicons.
// Inline SVG needs no font or extra request, and works under the strict CSP.
import type { ToolKind } from "../../common/acp-types";

const paths = {
  file: "M4 1.5h5l3.5 3.5v9.5h-8.5zM9 1.5V5h3.5",
  pencil: "M11 2.5l2.5 2.5L6 12.5 3 13l.5-3zM9.5 4l2.5 2.5",
  trash: "M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.5 6.5v5M9.5 6.5v5",
  move: "M2 8h12M11 5l3 3-3 3M5 5 2 8l3 3",
  search: "M7 2.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9zM10.3 10.3 14 14",
  terminal: "M2 3h12v10H2zM4.5 6l2 2-2 2M8 10.5h3.5",
  bulb: "M6 12.5h4M6.5 14.5h3M8 1.5a4.5 4.5 0 0 1 2.6 8.2c-.4.3-.6.8-.6 1.3v.5H6V11c0-.5-.2-1-.6-1.3A4.5 4.5 0 0 1 8 1.5z",
  globe: "M8 1.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zM1.5 8h13M8 1.5c-2.2 2.5-2.2 10.5 0 13M8 1.5c2.2 2.5 2.2 10.5 0 13",
  toggle: "M5 4.5h6a3.5 3.5 0 0 1 0 7H5a3.5 3.5 0 0 1 0-7zM5 6.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3z",
  gear: "M8 5.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6 13 13M3 13l1.4-1.4M11.6 4.4 13 3",
  check: "M3 8.5l3 3 7-7",
  x: "M4 4l8 8M12 4l-8 8",
  clock: "M8 1.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zM8 4.5V8l2.5 1.5",
  history: "M2.5 8a5.5 5.5 0 1 0 1.6-3.9M2 2.5v2.5h2.5M8 5v3l2 1.5",
  plus: "M8 3v10M3 8h10",
  send: "M8 13V3M3.5 7.5 8 3l4.5 4.5",
  stop: "M4.5 4.5h7v7h-7z",
  paperclip: "M12.5 7.5 7.8 12.2a3 3 0 0 1-4.2-4.2l5-5a2 2 0 0 1 2.8 2.8l-5 5a1 1 0 0 1-1.4-1.4L9.5 4.9",
  selection: "M2.5 4h3M2.5 8h7M2.5 12h5M11 10l2 2-2 2",
  image: "M2 3h12v10H2zM2 11l3.5-3.5 3 3L11 8l3 3M10.5 5.5h.01",
  fork: "M5 2.5v6.5M5 9a3 3 0 0 0 3 3h1M5 2.5a1.2 1.2 0 1 0 0 .01M11 12a1.5 1.5 0 1 0 0 .01M11 4a1.5 1.5 0 1 0 0 .01M5 6.5c0-1.5 2-2.5 4.5-2.5",
  chevron: "M6 4l4 4-4 4",
  chevronDown: "M4.5 6.5 8 10l3.5-3.5",
  warning: "M8 2 14.5 13.5h-13zM8 6.5v3.5M8 12v.01",
  info: "M8 1.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zM8 7.5v4M8 5v.01",
  error: "M8 1.5a6.5 6.5 0 1 1 0 13 6.5 6.5 0 0 1 0-13zM5.5 5.5l5 5M10.5 5.5l-5 5",
  diff: "M4.5 2v6M1.5 5h6M9 11.5h5.5M10 2.5h3.5v3.5M13.5 2.5 9 7",
  restart: "M13.5 8A5.5 5.5 0 1 1 12 4.2M13.5 1.5V4.5h-3",
  compress: "M5 1.5v3.5H1.5M11 1.5v3.5h3.5M5 14.5V11H1.5M11 14.5V11h3.5",
  circle: "M8 3.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9z",
  dot: "M8 6.5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3z",
  external: "M9.5 2.5h4v4M13.5 2.5 8 8M11.5 9.5v4h-9v-9h4",
  sparkle: "M8 1.5 9.4 6.6 14.5 8 9.4 9.4 8 14.5 6.6 9.4 1.5 8 6.6 6.6z",
} as const;

export type IconName = keyof typeof paths;

/** Icons drawn as solid shapes rather than outlines. */
const FILLED = new Set<IconName>(["stop", "dot"]);

export function Icon({ name, class: className }: { name: IconName; class?: string }) {
  return (
    <svg class={`icon ${className ?? ""}`} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={paths[name]} fill={FILLED.has(name) ? "currentColor" : "none"} stroke="currentColor" stroke-width="1.3" stroke-linecap="round" stroke-linejoin="round" />
    </svg>
  );
}

const toolIcons: Record<ToolKind, IconName> = {
  read: "file",
  edit: "pencil",
  delete: "trash",
  move: "move",
  search: "search",
  execute: "terminal",
  think: "bulb",
  fetch: "globe",
  switch_mode: "toggle",
  other: "gear",
};

export function toolIcon(kind: string): IconName {
  return toolIcons[kind as ToolKind] ?? "gear";
}

/** A small animated ring for "in progress" (animation is CSS, so it stops under reduced motion). */
export function Spinner({ label }: { label?: string }) {
  return <span class="spinner" role={label ? "img" : undefined} aria-label={label} aria-hidden={label ? undefined : "true"} />;
}
