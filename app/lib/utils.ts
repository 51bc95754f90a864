import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Compose class names: `clsx` handles conditionals/arrays/objects, then
 * `tailwind-merge` resolves conflicting Tailwind utilities so the last one
 * wins (e.g. `cn("px-2", "px-4")` -> `"px-4"`).
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
