import { Badge } from "~/components/ui/badge";

/** Tags as small badges (a list, so screen readers count them). */
export function TagList({ tags, emptyText }: { tags: string[]; emptyText?: string }) {
  if (tags.length === 0) return emptyText ? <span className="text-muted-foreground">{emptyText}</span> : null;
  return (
    <ul className="flex flex-wrap gap-1">
      {tags.map((tag) => (
        <li key={tag}>
          <Badge variant="secondary" className="font-medium">
            {tag}
          </Badge>
        </li>
      ))}
    </ul>
  );
}
