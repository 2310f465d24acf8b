// An image in a tool card (a browser screenshot, an image file read): shown at the card's
// width, and full size in a lightbox on click. The lightbox is a modal <dialog> in the panel
// itself: no message to the extension, so it works the same in a reloaded or replayed chat.
import { useRef } from "preact/hooks";
import { imageLabel, imageSource } from "../../lib/tool-image";

export function ToolImage({ mimeType, data, title }: { mimeType: string; data: string; title?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const src = imageSource({ mimeType, data });
  const label = imageLabel({ mimeType, data });
  if (!src) return <div class="muted">Image not shown ({label})</div>;
  const name = title ? `${title} (${label})` : label;
  return (
    <figure class="tool-image" data-testid="tool-image">
      <button type="button" class="tool-image-open" title="Open full size" aria-label={`Open full size: ${name}`} onClick={() => dialog.current?.showModal()}>
        <img src={src} alt={name} />
      </button>
      <figcaption class="muted">{label}</figcaption>
      {/* A click anywhere in the lightbox closes it (Escape too: the dialog's own behaviour). */}
      <dialog ref={dialog} class="image-lightbox" data-testid="image-lightbox" aria-label={name} onClick={() => dialog.current?.close()}>
        <img src={src} alt={name} />
      </dialog>
    </figure>
  );
}
