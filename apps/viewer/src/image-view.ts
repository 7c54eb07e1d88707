import type { DetectionBox } from './detection-boxes.js';
import { rgbaPixels } from './raw-pixels.js';
import type { ImageBytes } from './worker-protocol.js';

/** The colours boxes are drawn in, by class label (or box number when there is none). */
export const BOX_COLORS = ['#ff00ff', '#00e5ff', '#ffd600', '#00e676', '#ff6d00', '#2979ff'] as const;

/** A canvas of the image with its boxes and class text drawn on it, or a message when it does not decode. */
export async function imageView(
  { bytes, type, pixels }: ImageBytes,
  boxes: readonly DetectionBox[],
): Promise<HTMLElement> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(
      pixels === undefined
        ? new Blob([bytes as Uint8Array<ArrayBuffer>], { type })
        : new ImageData(rgbaPixels(bytes, pixels), pixels.width, pixels.height),
    );
  } catch (error) {
    const message = document.createElement('p');
    message.className = 'warning';
    message.textContent = `${type} bytes that do not decode (${error instanceof Error ? error.message : String(error)})`;
    return message;
  }
  const canvas = document.createElement('canvas');
  canvas.className = 'record-image';
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  canvas.title = `${pixels === undefined ? type : `raw, ${pixels.channels} channels`}, ${bitmap.width}×${bitmap.height}`;
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const line = Math.max(2, Math.round(Math.min(canvas.width, canvas.height) / 100));
  context.lineWidth = line;
  context.font = `${Math.max(12, line * 6)}px system-ui, sans-serif`;
  context.textBaseline = 'top';
  boxes.forEach((box, index) => {
    const color = BOX_COLORS[Number(box.label ?? BigInt(index)) % BOX_COLORS.length]!;
    const x = box.xmin * canvas.width;
    const y = box.ymin * canvas.height;
    context.strokeStyle = color;
    context.strokeRect(x, y, (box.xmax - box.xmin) * canvas.width, (box.ymax - box.ymin) * canvas.height);
    const caption = [box.text, box.label === undefined ? undefined : String(box.label)]
      .filter((part) => part !== undefined)
      .join(' · ');
    if (caption === '') return;
    const width = context.measureText(caption).width + line * 2;
    const height = Math.max(12, line * 6) + line;
    const top = Math.max(0, y - height);
    context.fillStyle = color;
    context.fillRect(x, top, width, height);
    context.fillStyle = '#000000';
    context.fillText(caption, x + line, top + line / 2);
  });
  return canvas;
}
