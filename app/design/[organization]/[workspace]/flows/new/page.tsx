export { default } from "@/features/design/new-flow-page";
