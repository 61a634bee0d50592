export { default } from "@/features/design/layer-page";
