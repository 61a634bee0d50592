export { default } from "@/features/design/flow-page";
