export { default } from "@/features/design/flows-page";
