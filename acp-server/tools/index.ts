// Importing a tool file registers it. Adding a tool = adding its file + one line here.
import "./read-file";
import "./write-file";
import "./patch";
import "./search-files";
import "./terminal";
import "./process";
import "./todo";
import "./session-search";
import "./memory";
import "./skills-list";
import "./skill-view";
import "./skill-manage";
import "./delegate-task";

export { listTools, getTool, toolJsonSchema, resultText } from "./registry";
