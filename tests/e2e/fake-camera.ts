import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`): a Y4M (YUV 4:2:0) stream
 * showing one QR code, black modules on white with a quiet zone, in the middle of a grey frame. Chromium
 * opens the file when a page starts the camera, so a test may write another code to the same file first.
 */
const WIDTH = 640;
const HEIGHT = 480;
const FRAMES = 4;
const MODULE_PX = 8;
const QUIET_MODULES = 4;

/** The file this worker's browser reads its camera from (one per worker: workers run side by side). */
export const fakeCameraFile = path.join(os.tmpdir(), `caretaker-fake-camera-${process.env.TEST_WORKER_INDEX ?? "0"}.y4m`);

/** The Chromium flags of a fake camera reading `file`, permission granted without asking. */
export const fakeCameraFlags = (file = fakeCameraFile) => ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${file}`];

/** The Y4M bytes of a frame showing the QR code of `text`. */
export function qrVideo(text: string): Buffer {
  const modules = QRCode.create(text, { errorCorrectionLevel: "M" }).modules;
  const side = (modules.size + 2 * QUIET_MODULES) * MODULE_PX;
  if (side > HEIGHT) throw new Error(`the QR code of ${text.length} characters does not fit the frame`);
  const luma = Buffer.alloc(WIDTH * HEIGHT, 128);
  const left = Math.floor((WIDTH - side) / 2);
  const top = Math.floor((HEIGHT - side) / 2);
  for (let y = 0; y < side; y++) {
    const row = Math.floor(y / MODULE_PX) - QUIET_MODULES;
    for (let x = 0; x < side; x++) {
      const column = Math.floor(x / MODULE_PX) - QUIET_MODULES;
      const inCode = row >= 0 && row < modules.size && column >= 0 && column < modules.size;
      luma[(top + y) * WIDTH + left + x] = inCode && modules.get(row, column) ? 0 : 255;
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma, chroma]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`), ...Array.from({ length: FRAMES }, () => frame)]);
}

/** Shows the QR code of `text` to the fake camera from its next start. */
export function showToCamera(text: string, file = fakeCameraFile): void {
  fs.writeFileSync(file, qrVideo(text));
}
