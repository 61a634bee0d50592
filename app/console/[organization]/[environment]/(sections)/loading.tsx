export { default } from "@/features/shell/section-loading";
