import { describe, expect, it } from "vitest";
import en from "~/locales/en/webhooks.json";
import fr from "~/locales/fr-BE/webhooks.json";
import nl from "~/locales/nl-BE/webhooks.json";
import { deliveryErrorText } from "./delivery-errors";
import { UNREADABLE_SECRET } from "./delivery.server";

/** Translation keys of the texts the delivery code records, and of the network errors that are common. */
describe("a delivery's error in the reader's language", () => {
  it("names the errors the app writes, with their values", () => {
    expect(deliveryErrorText("endpoint disabled")).toEqual({ key: "webhooks:deliveries.errors.disabled" });
    expect(deliveryErrorText(UNREADABLE_SECRET)).toEqual({ key: "webhooks:deliveries.errors.secretUnreadable" });
    expect(deliveryErrorText("no answer within 10 s")).toEqual({ key: "webhooks:deliveries.errors.timeout", values: { seconds: 10 } });
    expect(deliveryErrorText("no answer within 0.2 s")).toEqual({ key: "webhooks:deliveries.errors.timeout", values: { seconds: 0.2 } });
    expect(deliveryErrorText("refused: only https:// URLs (WEBHOOKS_ALLOW_PRIVATE is off)")).toEqual({ key: "webhooks:deliveries.errors.httpsOnly" });
    expect(deliveryErrorText("refused: 10.0.0.1 is not a public address (WEBHOOKS_ALLOW_PRIVATE is off)")).toEqual({
      key: "webhooks:deliveries.errors.notPublic",
      values: { host: "10.0.0.1" },
    });
    expect(deliveryErrorText("getaddrinfo ENOTFOUND hooks.example.invalid")).toEqual({ key: "webhooks:deliveries.errors.noAddress", values: { host: "hooks.example.invalid" } });
    expect(deliveryErrorText("connect ECONNREFUSED 93.184.216.34:443")).toEqual({ key: "webhooks:deliveries.errors.connectionRefused" });
    expect(deliveryErrorText("socket hang up")).toEqual({ key: "webhooks:deliveries.errors.connectionReset" });
    expect(deliveryErrorText("self-signed certificate in certificate chain")).toEqual({ key: "webhooks:deliveries.errors.tls" });
  });

  it("leaves other texts as they are", () => {
    expect(deliveryErrorText("answered 500")).toBeNull();
    expect(deliveryErrorText("something unheard of")).toBeNull();
  });

  it("has every key in the three languages", () => {
    const keys = Object.keys(en.deliveries.errors).sort();
    expect(Object.keys(fr.deliveries.errors).sort()).toEqual(keys);
    expect(Object.keys(nl.deliveries.errors).sort()).toEqual(keys);
    for (const sample of ["endpoint disabled", "no answer within 10 s", "socket hang up", "getaddrinfo ENOTFOUND x"]) {
      expect(keys).toContain(deliveryErrorText(sample)!.key.replace("webhooks:deliveries.errors.", ""));
    }
  });
});
