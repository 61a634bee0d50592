export { default } from "@/features/design/design-layout";
