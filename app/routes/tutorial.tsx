export { default, loader } from "./coming-soon";
