// Placeholder until issue #12 lands this call (being written now).
export { action, loader } from "./not-found";
