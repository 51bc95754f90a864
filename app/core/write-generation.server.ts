/**
 * A number that changes after every committed unit of work in this process (decision 031): whatever a
 * page shows that was read at one generation may be served again only while the generation is the same.
 * The public page cache (server/page-cache.ts) and the generation caches (generation-cache.server.ts) use
 * it, so that a sticker's page or the dashboard's figures never outlive a change of what they show. Held
 * on `globalThis`: server.ts and the app are two bundles.
 */
const holder = globalThis as unknown as { __caretakerWriteGeneration?: number };

export function writeGeneration(): number {
  return holder.__caretakerWriteGeneration ?? 0;
}

/** Called by the unit of work once a transaction has committed. */
export function noteCommittedWrite(): void {
  holder.__caretakerWriteGeneration = writeGeneration() + 1;
}
