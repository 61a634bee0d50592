export { default } from "@/features/design/layers-page";
