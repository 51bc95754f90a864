import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Compose class names: `clsx` handles conditionals/arrays/objects, then tailwind-merge resolves
 * conflicting Tailwind utilities so the last one wins (`cn("px-2 text-sm", "px-4")` -> `"text-sm px-4"`).
 * The theme's colours (`text-muted-foreground`, `bg-primary`, ...) need no configuration: tailwind-merge
 * takes any word after a colour utility's prefix as a colour.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
