/** A round icon control on the brand-coloured header (bell, help, menu buttons). */
export const headerButton =
  "inline-flex size-11 shrink-0 items-center justify-center rounded-full text-primary-foreground transition-colors hover:bg-primary-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-foreground sm:size-10";
