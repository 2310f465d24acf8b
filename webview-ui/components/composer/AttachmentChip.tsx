// A file, selection or image attached to a prompt. With onRemove it has a remove button
// (composer); without, it is a plain label (sent messages).
import { Icon, type IconName } from "../icons";

const icons: Record<string, IconName> = { file: "file", selection: "selection", image: "image" };

export function AttachmentChip({ kind, name, detail, onRemove }: { kind: string; name: string; detail?: string; onRemove?: () => void }) {
  return (
    <span class="chip" title={detail ? `${name} ${detail}` : name}>
      <Icon name={icons[kind] ?? "file"} />
      <span class="chip-name">{name}</span>
      {detail && <span class="chip-detail">{detail}</span>}
      {onRemove && (
        <button type="button" class="chip-remove" aria-label={`Remove ${name}`} onClick={onRemove}>
          <Icon name="x" />
        </button>
      )}
    </span>
  );
}
