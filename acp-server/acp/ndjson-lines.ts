// The frame splitter lives in util/ (the child-agent and extension readers use it too);
// the ACP edge keeps importing it from here.
export { DEFAULT_MAX_FRAME_MB } from "../config/frame-limit";
export * from "../util/ndjson-lines";
