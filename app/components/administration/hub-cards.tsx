import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** One card of a hub (/administration, /configuration): a title that links, a figure and a line of text. */
export interface HubCard {
  key: string;
  to: string;
  title: string;
  description: string;
  /** The figure, already written ("12 users"); none for a card without one. */
  count?: string | null;
}

/**
 * The cards of a hub as a list of links: one column on a phone, two or three wider; the whole card is the
 * link's target (a plain anchor, so it works without JavaScript).
 */
export function HubCards({ label, cards, footer }: { label: string; cards: HubCard[]; footer?: ReactNode }) {
  return (
    <nav aria-label={label}>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {cards.map((card) => (
          <li key={card.key}>
            <Link
              to={card.to}
              data-testid={`hub-card-${card.key}`}
              className="flex h-full flex-col gap-2 rounded-lg border bg-card p-4 text-card-foreground shadow-sm transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="text-base font-semibold">{card.title}</span>
              {card.count ? <span className="text-2xl font-semibold tabular-nums">{card.count}</span> : null}
              <span className="text-sm text-muted-foreground">{card.description}</span>
            </Link>
          </li>
        ))}
      </ul>
      {footer}
    </nav>
  );
}
