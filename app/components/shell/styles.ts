/** A round icon control on the brand-coloured header (bell, help, menu buttons). */
export const headerButton = "shell-icon-btn"; // the stylesheet's .shell-icon-btn (app/styles/tailwind.css)
