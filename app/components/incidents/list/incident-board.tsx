import { Link, useFetcher, useFetchers, useLocation, useSubmit } from "@remix-run/react";
import { type DragEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { cellLinkClass } from "~/components/lists/styles";
import { Button, buttonVariants } from "~/components/ui/button";
import { LinkArea } from "~/components/ui/link-area";
import { LIST_COUNT_CAP } from "~/lib/list-query";
import { cn } from "~/lib/utils";
import { COLUMN_PARAM, columnHref } from "~/modules/incidents/list-url";
import type { IncidentStatus } from "~/db/enums";
import type { BoardColumn, IncidentRow } from "~/modules/incidents/queries.server";
import { locationLines, priorityBadge, StatusSelect, statusFetcherKey } from "./shared";
import { useDates } from "~/lib/use-dates";
import { useHydrated } from "~/lib/use-hydrated";

/** The data type of a dragged card: its incident id. */
const DRAG_TYPE = "application/x-incident-id";
const STATUS_KEY = /^incident-status-(\d+)$/;

export interface IncidentBoardProps {
  columns: BoardColumn[];
  /** The cursors of the address (a column shown from its "More" page without JavaScript). */
  cursors: Partial<Record<number, string>>;
  /** The statuses the filter shows (empty: all): a column filtered out is not shown. */
  statuses: number[];
}

/**
 * The kanban board (`?view=board`): a column per status (Pending, In Progress, Done, Rejected) with its
 * total and its first cards, newest first. Every card has a status form ("Move to", works without
 * JavaScript); with JavaScript a card is dragged to another column and moves at once, back again with an
 * error toast if the change is refused. "More" shows a column's next cards: a link without JavaScript,
 * appended in place with it.
 */
export function IncidentBoard({ columns, cursors, statuses }: IncidentBoardProps) {
  const { t, i18n } = useTranslation("incidentList");
  const submit = useSubmit();
  const fetchers = useFetchers();
  const [announcement, setAnnouncement] = useState("");
  // The cards "More" appended (with JavaScript), per column. They stay when the server's first pages
  // change after a move (the board is keyed by its address); a card moved from them takes the status
  // its move settled on.
  const [extra, setExtra] = useState<Record<number, { items: IncidentRow[]; next: string | null }>>({});

  // Moves in flight (dragged, or chosen in a card's form): the card shows in its new column at once.
  const moving = movesInFlight(fetchers);
  const settled = useSettledMoves(fetchers);

  const wanted = statuses.filter((s) => columns.some((c) => c.status === s));
  const shown = columns.filter((c) => wanted.length === 0 || wanted.includes(c.status));
  const everyCard = new Map<number, IncidentRow>();
  for (const c of columns) for (const card of c.items) everyCard.set(card.id, card);
  for (const e of Object.values(extra)) {
    for (const card of e.items) {
      if (everyCard.has(card.id)) continue;
      const status = settled.get(card.id);
      everyCard.set(card.id, status === undefined ? card : { ...card, status });
    }
  }

  const statusName = (status: number) => t(`incidents:status.${status}`);
  const move = (card: IncidentRow, status: number) => {
    if (card.status === status) return;
    const form = new FormData();
    form.set("intent", "status");
    form.set("id", String(card.id));
    form.set("status", String(status));
    setAnnouncement(t("board.moving", { shortId: card.shortId, status: statusName(status) }));
    submit(form, { method: "post", navigate: false, fetcherKey: statusFetcherKey(card.id), preventScrollReset: true });
  };

  return (
    <LinkArea className="grid gap-3">
      <p className="text-sm text-muted-foreground">{t("board.hint")}</p>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {shown.map((column) => (
          <Column
            key={column.status}
            column={column}
            everyCard={everyCard}
            extra={extra[column.status] ?? null}
            onMore={(items, next) =>
              setExtra((current) => {
                const before = current[column.status]?.items ?? [];
                return { ...current, [column.status]: { items: [...before, ...items.filter((i) => !before.some((b) => b.id === i.id))], next } };
              })
            }
            moving={moving}
            cursor={cursors[column.status] ?? null}
            locale={i18n.language}
            onMove={move}
            onAnnounce={setAnnouncement}
          />
        ))}
      </div>
    </LinkArea>
  );
}

type Fetchers = ReturnType<typeof useFetchers>;

/** The status each card's move in flight is going to, by incident id. */
function movesInFlight(fetchers: Fetchers): Map<number, IncidentStatus> {
  const moving = new Map<number, IncidentStatus>();
  for (const fetcher of fetchers) {
    const match = STATUS_KEY.exec(fetcher.key);
    const status = fetcher.formData?.get("status");
    if (match && typeof status === "string" && /^\d$/.test(status)) moving.set(Number(match[1]), Number(status) as IncidentStatus);
  }
  return moving;
}

/**
 * The statuses the board's moves settled on, by incident id: a move that left the fetchers without an
 * error answer (a refused one answers its error, and its card goes back).
 */
function useSettledMoves(fetchers: Fetchers): Map<number, IncidentStatus> {
  const inFlight = useRef(new Map<number, IncidentStatus>());
  const [settled, setSettled] = useState(() => new Map<number, IncidentStatus>());
  useEffect(() => {
    const moving = movesInFlight(fetchers);
    const done: [number, IncidentStatus][] = [];
    for (const [id, status] of inFlight.current) {
      if (moving.has(id)) continue;
      inFlight.current.delete(id);
      const answer = fetchers.find((f) => f.key === statusFetcherKey(id))?.data as { message?: unknown } | undefined;
      if (!answer?.message) done.push([id, status]);
    }
    for (const [id, status] of moving) inFlight.current.set(id, status);
    if (done.length > 0) setSettled((current) => new Map([...current, ...done]));
  }, [fetchers]);
  return settled;
}

interface ColumnProps {
  column: BoardColumn;
  /** Every card loaded on the board (first pages and appended ones), by id. */
  everyCard: Map<number, IncidentRow>;
  extra: { items: IncidentRow[]; next: string | null } | null;
  onMore: (items: IncidentRow[], next: string | null) => void;
  moving: Map<number, number>;
  cursor: string | null;
  locale: string;
  onMove: (card: IncidentRow, status: number) => void;
  onAnnounce: (text: string) => void;
}

function Column({ column, everyCard, extra, onMore, moving, cursor, locale, onMove, onAnnounce }: ColumnProps) {
  const { t } = useTranslation("incidentList");
  const hydrated = useHydrated();
  const location = useLocation();
  const more = useFetcher<{ kind: "column"; column: BoardColumn }>();
  const [over, setOver] = useState(false);
  const next = extra ? extra.next : column.next;

  useEffect(() => {
    const data = more.data;
    if (more.state !== "idle" || !data || data.kind !== "column" || data.column.status !== column.status) return;
    onMore(data.column.items, data.column.next);
    // onMore changes on every render of the board; the answer is appended once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [more.data, more.state, column.status]);

  // The column's cards: its own (first page and appended), less those moving away, plus those moving in.
  const own = [...column.items, ...(extra?.items ?? [])]
    .map((card) => everyCard.get(card.id)!)
    .filter((card, i, all) => card.status === column.status && all.indexOf(card) === i);
  const arriving = [...everyCard.values()].filter((card) => card.status !== column.status && moving.get(card.id) === column.status);
  const leaving = own.filter((card) => moving.has(card.id) && moving.get(card.id) !== column.status);
  const cards = [...arriving, ...own.filter((card) => !leaving.includes(card))];
  const total = column.total + arriving.length - leaving.length;

  const totalText = column.capped ? t("board.totalCapped", { total: LIST_COUNT_CAP.toLocaleString(locale) }) : t("board.total", { count: total, total: total.toLocaleString(locale) });
  const headingId = `board-column-${column.status}`;
  const statusName = t(`incidents:status.${column.status}`);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const id = Number(event.dataTransfer.getData(DRAG_TYPE) || event.dataTransfer.getData("text/plain"));
    const card = everyCard.get(id);
    if (card) onMove(card, column.status);
  };

  return (
    <section
      aria-labelledby={headingId}
      className={cn("grid min-w-0 content-start gap-3 rounded-md border bg-muted/30 p-2.5", over && "ring-2 ring-ring")}
      data-status={column.status}
      onDragOver={(event) => {
        if (!hydrated) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        if (!over) setOver(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <header className="flex items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold">
          {statusName}
        </h2>
        <span className="text-sm tabular-nums text-muted-foreground">{totalText}</span>
      </header>
      {cursor ? (
        <Link to={columnHref(location.search, column.status, null)} preventScrollReset className={cn(cellLinkClass, "text-sm")}>
          {t("board.first")}
        </Link>
      ) : null}
      {cards.length === 0 ? (
        <p className="py-4 text-center text-sm text-muted-foreground">{t("board.empty")}</p>
      ) : (
        <ul className="grid gap-2" aria-labelledby={headingId}>
          {cards.map((card) => (
            <Card key={card.id} card={card} status={column.status} onAnnounce={onAnnounce} />
          ))}
        </ul>
      )}
      {next ? (
        hydrated ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={more.state !== "idle"}
            aria-label={t("board.moreLabel", { status: statusName })}
            onClick={() => {
              const params = new URLSearchParams(columnHref(location.search, column.status, next).split("?")[1]);
              params.set(COLUMN_PARAM, String(column.status));
              more.load(`/incidents?${params}`);
            }}
          >
            {t("board.more")}
          </Button>
        ) : (
          <Link
            to={columnHref(location.search, column.status, next)}
            preventScrollReset
            aria-label={t("board.moreLabel", { status: statusName })}
            className={buttonVariants({ variant: "outline", size: "sm" })}
          >
            {t("board.more")}
          </Link>
        )
      ) : null}
    </section>
  );
}

/**
 * A card: the number and title over the whole width of the column (four columns share 1280 px beside the
 * menu), then the priority and the assignee, the place, the creation time and the status form.
 */
function Card({ card, status, onAnnounce }: { card: IncidentRow; status: number; onAnnounce: (text: string) => void }) {
  const { t } = useTranslation("incidentList");
  const hydrated = useHydrated();
  const date = useDates().dateTime;
  const location = locationLines(card.location, t);
  return (
    <li
      draggable={hydrated}
      data-incident={card.id}
      onDragStart={(event) => {
        event.dataTransfer.setData(DRAG_TYPE, String(card.id));
        event.dataTransfer.setData("text/plain", String(card.id));
        event.dataTransfer.effectAllowed = "move";
      }}
      className={cn("grid gap-2 rounded-md border bg-background p-2.5 shadow-xs", hydrated && "cursor-grab active:cursor-grabbing", card.status !== status && "opacity-70")}
    >
      <a href={`/incident/${card.id}`} className={cn(cellLinkClass, "min-w-0 break-words")}>
        <span className="tabular-nums text-muted-foreground">#{card.shortId}</span> {card.title}
      </a>
      <dl className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        <div>
          <dt className="sr-only">{t("incidents:fields.priority")}</dt>
          <dd>{priorityBadge(card.priority, t)}</dd>
        </div>
        <div className="min-w-0 break-words">
          <dt className="sr-only">{t("incidents:fields.assignee")}</dt>
          <dd>{card.assignee?.name ?? t("incidents:unassigned")}</dd>
        </div>
        {location.length ? (
          <div className="basis-full break-words">
            <dt className="sr-only">{t("incidents:fields.location")}</dt>
            <dd>{location.join(" · ")}</dd>
          </div>
        ) : null}
        <div className="basis-full">
          <dt className="sr-only">{t("incidents:fields.createdAt")}</dt>
          <dd>
            <time dateTime={card.createdAt}>{date(card.createdAt)}</time>
          </dd>
        </div>
      </dl>
      <StatusSelect
        row={card}
        label={t("board.moveTo", { shortId: card.shortId })}
        fill
        onSubmitted={(value) => onAnnounce(t("board.moving", { shortId: card.shortId, status: t(`incidents:status.${value}`) }))}
      />
    </li>
  );
}
