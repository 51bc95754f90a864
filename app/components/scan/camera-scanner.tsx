import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/lib/use-hydrated";
import { Icon } from "~/components/shell/icons";
import { qrDecoder } from "./qr-decoder";

type CameraState = "idle" | "starting" | "scanning" | "found" | "unavailable" | "noDecoder";

/** Time between two frames read, so that a phone keeps up with the video. */
const FRAME_INTERVAL_MS = 150;

/**
 * The scan screen's camera, once JavaScript runs: "Use the camera" opens the back camera, shows its video and
 * reads its frames until one holds a QR code, then stops the camera and hands the code's text to `onCode`
 * (which sends it to the server like a typed code). Without a camera or permission it says so; the typed
 * form beside it keeps working. Stops the camera when the screen is left.
 */
export function CameraScanner({ onCode }: { onCode: (text: string) => void }) {
  const { t } = useTranslation("shell");
  const hydrated = useHydrated();
  const [state, setState] = useState<CameraState>("idle");
  const video = useRef<HTMLVideoElement>(null);
  const stopCamera = useRef<() => void>(() => {});
  useEffect(() => () => stopCamera.current(), []);
  if (!hydrated) return null;

  const stop = () => {
    stopCamera.current();
    setState("idle");
  };

  const start = async () => {
    setState("starting");
    let stream: MediaStream;
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error("no camera");
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false });
    } catch {
      setState("unavailable");
      return;
    }
    let running = true;
    let timer: number | undefined;
    stopCamera.current = () => {
      running = false;
      window.clearTimeout(timer);
      for (const track of stream.getTracks()) track.stop();
    };
    const element = video.current;
    let decode: Awaited<ReturnType<typeof qrDecoder>>;
    try {
      if (!element) throw new Error("no video element");
      decode = await qrDecoder();
      element.srcObject = stream;
      await element.play();
    } catch {
      stopCamera.current();
      setState("noDecoder");
      return;
    }
    if (!running) return;
    setState("scanning");
    const read = async () => {
      if (!running) return;
      const text = await decode(element).catch(() => null);
      if (!running) return;
      if (text) {
        stopCamera.current();
        setState("found");
        onCode(text);
      } else {
        timer = window.setTimeout(read, FRAME_INTERVAL_MS);
      }
    };
    void read();
  };

  const active = state === "starting" || state === "scanning";
  const message =
    state === "starting"
      ? t("scan.camera.starting")
      : state === "scanning"
        ? t("scan.camera.aim")
        : state === "found"
          ? t("scan.camera.found")
          : state === "unavailable"
            ? t("scan.camera.unavailable")
            : state === "noDecoder"
              ? t("scan.camera.noDecoder")
              : "";

  return (
    <section aria-labelledby="scan-camera" className="grid gap-4 rounded-xl border bg-card p-5 shadow-sm">
      <h2 id="scan-camera" className="text-lg font-semibold">
        {t("scan.camera.title")}
      </h2>
      <video
        ref={video}
        muted
        playsInline
        aria-label={t("scan.camera.video")}
        hidden={!active}
        data-scan-video
        className="aspect-square w-full max-w-sm rounded-lg bg-black object-cover"
      />
      <p role="status" className={state === "unavailable" || state === "noDecoder" ? "text-sm font-medium text-destructive" : "text-sm text-muted-foreground"}>
        {message}
      </p>
      <div>
        {active ? (
          <Button type="button" variant="outline" onClick={stop}>
            {t("scan.camera.stop")}
          </Button>
        ) : (
          <Button type="button" onClick={() => void start()} disabled={state === "found"}>
            <Icon name="scan" />
            {t("scan.camera.use")}
          </Button>
        )}
      </div>
    </section>
  );
}
