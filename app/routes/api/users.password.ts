export { loader, action } from "./not-found";
