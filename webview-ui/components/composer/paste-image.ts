// Images pasted into the composer go to the host as base64 (it turns them into attachments).
import { post } from "../../bridge/vscode-api";

/** Sends every image on the clipboard; true when there was one (the paste is then consumed). */
export function pasteImages(data: DataTransfer | null): boolean {
  const files = [...(data?.items ?? [])].filter((item) => item.kind === "file" && item.type.startsWith("image/")).map((item) => item.getAsFile());
  let any = false;
  files.forEach((file, i) => {
    if (!file) return;
    any = true;
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === "string" ? reader.result : ""; // readAsDataURL: a data: URL
      const data = url.slice(url.indexOf(",") + 1);
      const name = file.name && file.name !== "image.png" ? file.name : `pasted-image-${Date.now()}${i ? `-${i}` : ""}.${file.type.split("/")[1] ?? "png"}`;
      post({ type: "pasteImage", mimeType: file.type, data, name });
    };
    reader.onerror = () => console.warn("[hermes panel] could not read the pasted image", reader.error);
    reader.readAsDataURL(file);
  });
  return any;
}
