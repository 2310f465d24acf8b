// Mode and model pickers plus any other session options the agent offers (ACP configOptions):
// select options become <select>s, boolean ones toggles. Changes go to the host, which echoes
// the new state back.
import type { SessionConfigOption, SessionConfigSelectOption, SessionModeState } from "../../common/acp-types";
import { post } from "../bridge/vscode-api";
import { shownConfigOptions } from "../lib/shown-config-options";
import { Icon } from "./icons";

export function Pickers({ modes, configOptions }: { modes?: SessionModeState; configOptions: SessionConfigOption[] }) {
  const options = shownConfigOptions(configOptions, modes);
  return (
    <div class="pickers">
      {modes && modes.availableModes.length > 0 && (
        <label class="picker" title="Mode">
          <span class="sr-only">Mode</span>
          <select data-testid="mode-picker" value={modes.currentModeId} onChange={(e) => post({ type: "setMode", modeId: e.currentTarget.value })}>
            {modes.availableModes.map((m) => (
              <option key={m.id} value={m.id} title={m.description ?? undefined}>
                {m.name}
              </option>
            ))}
          </select>
          <Icon name="chevronDown" class="picker-chevron" />
        </label>
      )}
      {options.map((option) => (
        <ConfigOption key={option.id} option={option} />
      ))}
    </div>
  );
}

function ConfigOption({ option }: { option: SessionConfigOption }) {
  const testId = option.category === "model" ? "model-picker" : option.category === "mode" ? "mode-picker" : undefined;
  if (option.type === "boolean") {
    return (
      <label class="picker toggle" title={option.description ?? option.name}>
        <input type="checkbox" checked={option.currentValue} onChange={(e) => post({ type: "setConfigOption", configId: option.id, value: e.currentTarget.checked })} />
        <span>{option.name}</span>
      </label>
    );
  }
  return (
    <label class="picker" title={option.description ?? option.name}>
      <span class="sr-only">{option.name}</span>
      <select data-testid={testId} value={option.currentValue} onChange={(e) => post({ type: "setConfigOption", configId: option.id, value: e.currentTarget.value })}>
        {option.options.map((entry) =>
          "group" in entry ? (
            <optgroup key={entry.group} label={entry.name}>
              {entry.options.map(renderOption)}
            </optgroup>
          ) : (
            renderOption(entry)
          ),
        )}
      </select>
      <Icon name="chevronDown" class="picker-chevron" />
    </label>
  );
}

function renderOption(option: SessionConfigSelectOption) {
  return (
    <option key={option.value} value={option.value} title={option.description ?? undefined}>
      {option.name}
    </option>
  );
}
