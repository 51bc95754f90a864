import { type FormEvent, useState } from "react";

/**
 * The number of places chosen in a tree of checkboxes (the maintenance location picker, the printing
 * tree), following the ticks as they are made. The server renders `serverCount` (the choices it was
 * posted); with JavaScript, each tick of a checkbox named in `names` inside the element given
 * `onChange` moves the count by the difference between the boxes' ticks now and as the server rendered
 * them (`defaultChecked`), so choices the server counted but did not render a box for stay counted.
 * A new answer from the server (`source`, e.g. the tree it sent) starts again from its count.
 */
export function useChosenCount(serverCount: number, source: unknown, names: readonly string[]) {
  const [ticked, setTicked] = useState<{ source: unknown; count: number } | null>(null);
  const count = ticked && ticked.source === source ? ticked.count : serverCount;
  const onChange = (event: FormEvent<HTMLElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.type !== "checkbox" || !names.includes(target.name)) return;
    let delta = 0;
    for (const box of event.currentTarget.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
      if (names.includes(box.name)) delta += Number(box.checked) - Number(box.defaultChecked);
    }
    setTicked({ source, count: serverCount + delta });
  };
  return { count, onChange };
}
